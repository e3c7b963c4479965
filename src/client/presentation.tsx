import { type PresentationBootData, pageDataOfBoot } from "../features/presentation/page-data";
import { PresentationPage } from "../features/view-page/components/PresentationPage";
import { hydratePage } from "./hydrate";

// Issue 11: the transcript stays the server's markup (the boot data says where); the sidebar's rows load after the page.
hydratePage<PresentationBootData>((boot) => <PresentationPage data={pageDataOfBoot(boot)} />);
