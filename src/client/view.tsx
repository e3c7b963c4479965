import { PrivateViewPage } from "../features/presentation/components/PrivateViewPage";
import type { PresentationPageData } from "../features/presentation/page-data";
import { hydratePage } from "./hydrate";

hydratePage<PresentationPageData>((data) => <PrivateViewPage data={data} />);
