import { PresenterPage } from "../features/presentation/presenter/components/PresenterPage";
import type { PresenterPageData } from "../features/presentation/presenter/page-data";
import { hydratePage } from "./hydrate";

hydratePage<PresenterPageData>((data) => <PresenterPage data={data} />);
