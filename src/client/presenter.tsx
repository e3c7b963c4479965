import { LivePresenterPage, type LivePresenterPageData } from "../features/live/components/LivePresenterPage";
import { hydratePage } from "./hydrate";

// Issue 35: the presenter view comes with its live session panel (composed by the live feature).
hydratePage<LivePresenterPageData>((data) => <LivePresenterPage data={data} />);
