import { DashboardPage, type DashboardPageData } from "../features/dashboard/components/DashboardPage";
import { hydratePage } from "./hydrate";

hydratePage<DashboardPageData>((data) => <DashboardPage data={data} />);
