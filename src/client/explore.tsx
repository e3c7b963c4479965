import { ExplorePage } from "../features/explore/components/ExplorePage";
import type { ExploreBootData } from "../features/explore/service";
import { hydratePage } from "./hydrate";

hydratePage<ExploreBootData>((data) => <ExplorePage data={data} />);
