import { ErrorPage, type ErrorPageData } from "../ui/ErrorPage";
import { hydratePage } from "./hydrate";

hydratePage<ErrorPageData>((data) => <ErrorPage data={data} />);
