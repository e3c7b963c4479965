import { HomePage } from "../features/home/components/HomePage";
import type { HomePageData } from "../features/home/service";
import { hydratePage } from "./hydrate";

hydratePage<HomePageData>((data) => <HomePage data={data} />);
