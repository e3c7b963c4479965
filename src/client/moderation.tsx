import { ModerationPage, type ModerationPageData } from "../features/moderation/components/ModerationPages";
import { hydratePage } from "./hydrate";

hydratePage<ModerationPageData>((data) => <ModerationPage data={data} />);
