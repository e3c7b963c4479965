import { EditorPage } from "../features/editor/components/EditorPage";
import type { EditorPageData } from "../features/editor/page-data";
import { hydratePage } from "./hydrate";

hydratePage<EditorPageData>((data) => <EditorPage data={data} />);
