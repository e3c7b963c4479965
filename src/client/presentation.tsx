import type { PresentationPageData } from "../features/presentation/page-data";
import { PresentationPage } from "../features/view-page/components/PresentationPage";
import { hydratePage } from "./hydrate";

hydratePage<PresentationPageData>((data) => <PresentationPage data={data} />);
