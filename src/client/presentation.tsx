import type { PresentationBootData } from "../features/presentation/page-data";
import { PresentationPage } from "../features/view-page/components/PresentationPage";
import { hydratePage } from "./hydrate";
import { presentationDataFrom } from "./presentation-boot";

hydratePage<PresentationBootData>((boot) => <PresentationPage data={presentationDataFrom(boot)} />);
