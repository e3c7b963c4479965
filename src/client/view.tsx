import { type PresentationBootData, pageDataOfBoot } from "../features/presentation/page-data";
import { ViewLinkPage } from "../features/view-page/components/ViewLinkPage";
import { hydratePage } from "./hydrate";

// Issue 11: this page draws no transcript (null in the boot data).

hydratePage<PresentationBootData>((boot) => <ViewLinkPage data={pageDataOfBoot(boot)} />);
