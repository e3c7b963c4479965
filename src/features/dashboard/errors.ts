/** Something the dashboard can't do, with its status and a message id for the person. */
export class DashboardError extends Error {
  override readonly name = "DashboardError";
  constructor(
    readonly statusCode: 400 | 403 | 404 | 413 | 422,
    readonly messageId: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(messageId);
  }
}
