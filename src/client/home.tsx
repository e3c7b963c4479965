import { HomePage } from "../features/home/components/HomePage";
import type { HomeBootData } from "../features/home/service";
import { hydratePage } from "./hydrate";

hydratePage<HomeBootData>((data) => <HomePage data={data} />);
