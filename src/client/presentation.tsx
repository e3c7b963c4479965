import { PresentationPage } from "../features/presentation/components/PresentationPage";
import type { PresentationPageData } from "../features/presentation/page-data";
import { hydratePage } from "./hydrate";

hydratePage<PresentationPageData>((data) => <PresentationPage data={data} />);
