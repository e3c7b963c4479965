import { ExplorePage } from "../features/explore/components/ExplorePage";
import type { ExplorePageData } from "../features/explore/service";
import { hydratePage } from "./hydrate";

hydratePage<ExplorePageData>((data) => <ExplorePage data={data} />);
