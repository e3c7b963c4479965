/**
 * Podium's entry point. React (and the libraries around it) pick their production or
 * development build when first imported, from NODE_ENV: set it before anything imports them.
 */
process.env.NODE_ENV ??= "production";
await import("./serve");

export {};
