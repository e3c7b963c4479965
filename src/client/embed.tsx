import { EmbedPage } from "../features/presentation/components/EmbedPage";
import type { PresentationPageData } from "../features/presentation/page-data";
import { hydratePage } from "./hydrate";

hydratePage<PresentationPageData>((data) => <EmbedPage data={data} />);
