import { CatalogPage, type CatalogPageData } from "../features/catalog/components/CatalogPage";
import { hydratePage } from "./hydrate";

hydratePage<CatalogPageData>((data) => <CatalogPage data={data} />);
