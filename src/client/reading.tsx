import { ReadingPage } from "../features/view-page/components/ReadingPage";
import type { ReadingPageData } from "../features/view-page/reading-data";
import { hydratePage } from "./hydrate";

// Issue 12: the slides arrive as markup only (the document is null in the boot data); ReadingPage keeps it.
hydratePage<ReadingPageData>((data) => <ReadingPage data={data} />);
