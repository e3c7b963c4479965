import { AccountPage, type AccountPageData } from "../features/accounts/components/AccountPages";
import { hydratePage } from "./hydrate";

hydratePage<AccountPageData>((data) => <AccountPage data={data} />);
