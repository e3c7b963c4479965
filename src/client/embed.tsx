import { EmbedPage } from "../features/presentation/components/EmbedPage";
import { type PresentationBootData, pageDataOfBoot } from "../features/presentation/page-data";
import { hydratePage } from "./hydrate";

// Issue 11: this page draws no transcript (null in the boot data).

hydratePage<PresentationBootData>((boot) => <EmbedPage data={pageDataOfBoot(boot)} />);
