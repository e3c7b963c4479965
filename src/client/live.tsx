import { LivePage, type LivePageData } from "../features/live/components/LivePage";
import { hydratePage } from "./hydrate";

// Issue 35: the follow page of a live session (or the notice of an ended one).
hydratePage<LivePageData>((data) => <LivePage data={data} />);
