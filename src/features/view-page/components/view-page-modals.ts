/**
 * Issue 30 item 1: the view page's dialogs, a chunk of their own that loads on intent (a pointer
 * over, or focus on, the Embed or Share button) or on the click, never with the page.
 */
export { EmbedModal } from "../../embed/components/EmbedModal";
export { ShareModal } from "../../share/components/ShareModal";
