import type { PresentationBootData } from "../features/presentation/page-data";
import { ViewLinkPage } from "../features/view-page/components/ViewLinkPage";
import { hydratePage } from "./hydrate";

// Issue 11: no transcript (null in the boot data; the server drew it) on this page.

hydratePage<PresentationBootData>((boot) => <ViewLinkPage data={boot} />);
