import { EmbedPage } from "../features/presentation/components/EmbedPage";
import type { PresentationBootData } from "../features/presentation/page-data";
import { hydratePage } from "./hydrate";

// Issue 11: no transcript (null in the boot data; the server drew it) on this page.

hydratePage<PresentationBootData>((boot) => <EmbedPage data={boot} />);
