import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_EVENT_QUEUE_LIMIT } from "../features/events/pipeline/in-process";
import {
  DEFAULT_EVENT_STREAM,
  DEFAULT_EVENT_STREAM_MB,
  EVENT_DRAIN_MAX_MS,
} from "../features/events/pipeline/jetstream";
import {
  ConfigError,
  configFromEnv,
  DEFAULT_FEATURES,
  DEFAULT_REDIS_PREFIX,
  knownFeatures,
  parseFeatures,
} from "./config";

describe("configuration from the environment", () => {
  it("has working defaults: port 3000, ./data, production", () => {
    const config = configFromEnv({}, { clientDir: null });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      env: "production",
      publicUrl: "http://localhost:3000",
      seedDemo: true,
      features: DEFAULT_FEATURES,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it("reads DATABASE_URL, PODIUM_DATA_DIR, limits and flags", () => {
    const config = configFromEnv(
      {
        PORT: "8080",
        DATABASE_URL: "postgres://u@h/db",
        PODIUM_DATA_DIR: "memory://",
        PODIUM_SIGNUP_RATE_LIMIT: "50",
        PODIUM_LOGIN_ACCOUNT_LIMIT: "40",
        PODIUM_FEATURES: "allow-content-curation=off,embed-responsive-only=on",
      },
      { clientDir: null },
    );
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBe("postgres://u@h/db");
    expect(config.dataDir).toBe("memory://");
    expect(config.accountLimits.signupsPerAddress).toBe(50);
    expect(config.accountLimits.loginFailuresPerAccount).toBe(40);
    expect(configFromEnv({}, { clientDir: null }).accountLimits.loginFailuresPerAccount).toBe(100);
    expect(config.features).toMatchObject({ "allow-content-curation": false, "embed-responsive-only": true });
  });

  it("issue 29 the cheap test password cost stops a server whose database keeps real people's passwords", () => {
    const onDisk = () =>
      configFromEnv({ PODIUM_TEST_PASSWORD_HASH_COST: "10", PODIUM_DATA_DIR: "./data" }, { clientDir: null });
    expect(onDisk).toThrow(ConfigError);
    expect(onDisk).toThrow(/in-memory database only/);
    expect(
      configFromEnv({ PODIUM_TEST_PASSWORD_HASH_COST: "10", PODIUM_DATA_DIR: "memory://" }, { clientDir: null })
        .dataDir,
    ).toBe("memory://");
  });

  it("issue 13 an unknown feature flag stops the start, naming it and the known ones", () => {
    const attempt = () =>
      configFromEnv({ PODIUM_FEATURES: "allow-content-curation=on,alow-content-curation=off" }, { clientDir: null });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      `PODIUM_FEATURES: "alow-content-curation" is not a feature Podium knows (a typo?). Known features: ${knownFeatures().join(", ")}.`,
    );
    expect(knownFeatures()).toContain("allow-content-curation");
    // The features file is held to the same rule.
    const dir = mkdtempSync(join(tmpdir(), "podium-flags-"));
    const file = join(dir, "features.json");
    writeFileSync(file, JSON.stringify({ "allow-content-curation": true, "dark-mode": true }));
    expect(() => configFromEnv({ PODIUM_FEATURES_FILE: file }, { clientDir: null })).toThrow(
      /"dark-mode" is not a feature Podium knows.*Known features: allow-content-curation/,
    );
    // Every known flag is accepted.
    expect(() =>
      parseFeatures(
        Object.keys(DEFAULT_FEATURES)
          .map((name) => `${name}=on`)
          .join(","),
      ),
    ).not.toThrow();
  });

  it("R3.6 reads flags from the features file, then the environment on top", () => {
    const dir = mkdtempSync(join(tmpdir(), "podium-flags-"));
    const file = join(dir, "features.json");
    writeFileSync(
      file,
      JSON.stringify({ "allow-content-curation": false, "gm-view-page-banner-human-connection": true }),
    );
    const config = configFromEnv(
      { PODIUM_FEATURES_FILE: file, PODIUM_FEATURES: "allow-content-curation=on" },
      { clientDir: null },
    );
    expect(config.features).toMatchObject({
      "allow-content-curation": true,
      "gm-view-page-banner-human-connection": true,
    });
    writeFileSync(file, JSON.stringify({ "allow-content-curation": "yes" }));
    expect(() => configFromEnv({ PODIUM_FEATURES_FILE: file }, { clientDir: null })).toThrow(/must be true or false/);
    writeFileSync(file, "{ nope");
    expect(() => configFromEnv({ PODIUM_FEATURES_FILE: file }, { clientDir: null })).toThrow(/not valid JSON/);
    expect(() => configFromEnv({ PODIUM_FEATURES_FILE: join(dir, "missing.json") }, { clientDir: null })).toThrow(
      /does not exist/,
    );
  });

  it("R2.26 PODIUM_NATIVE_APP takes the iPhone and the Android app together", () => {
    const config = configFromEnv(
      {
        PODIUM_NATIVE_APP:
          "ios|https://apps.example/podium|podium://open, android|https://play.example/podium|podium-android://open",
      },
      { clientDir: null },
    );
    expect(config.nativeApps).toEqual([
      { type: "ios", url: "https://apps.example/podium", ownProtocolUrl: "podium://open", openAppTimeout: 300 },
      {
        type: "android",
        url: "https://play.example/podium",
        ownProtocolUrl: "podium-android://open",
        openAppTimeout: 300,
      },
    ]);
    expect(config.nativeApp?.type).toBe("ios");
    expect(configFromEnv({}, { clientDir: null }).nativeApps).toEqual([]);
    expect(() =>
      configFromEnv(
        { PODIUM_NATIVE_APP: "ios|https://a.example/x|podium://open,ios|https://b.example/y|podium://open" },
        { clientDir: null },
      ),
    ).toThrow(/twice/);
    expect(() => configFromEnv({ PODIUM_NATIVE_APP: "ios|http://a.example|podium://x" }, { clientDir: null })).toThrow(
      /PODIUM_NATIVE_APP/,
    );
  });

  it("says clearly what is wrong with a bad setting", () => {
    expect(() => configFromEnv({ PORT: "eighty" }, { clientDir: null })).toThrow(ConfigError);
    expect(() => configFromEnv({ PORT: "70000" }, { clientDir: null })).toThrow(/PORT must be a whole number/);
    expect(() => configFromEnv({ PODIUM_ENV: "staging" }, { clientDir: null })).toThrow(/PODIUM_ENV must be one of/);
    expect(() => configFromEnv({ PODIUM_SECRET: "short" }, { clientDir: null })).toThrow(/at least 32/);
    expect(() => configFromEnv({ PODIUM_LIKE_RATE_LIMIT: "0" }, { clientDir: null })).toThrow(/positive whole number/);
    expect(() => parseFeatures("flag=maybe")).toThrow(/not name=on or name=off/);
  });

  it("issue 16 reads REDIS_URL, PODIUM_REDIS_PREFIX and PODIUM_DRAIN_SECONDS, and says what is wrong with them", () => {
    expect(configFromEnv({}, { clientDir: null })).toMatchObject({
      redisUrl: null,
      redisPrefix: DEFAULT_REDIS_PREFIX,
      drainMs: 0,
    });
    expect(
      configFromEnv(
        { REDIS_URL: "redis://127.0.0.1:6379/2", PODIUM_REDIS_PREFIX: "site-a:", PODIUM_DRAIN_SECONDS: "7.5" },
        { clientDir: null },
      ),
    ).toMatchObject({ redisUrl: "redis://127.0.0.1:6379/2", redisPrefix: "site-a:", drainMs: 7500 });
    expect(() => configFromEnv({ REDIS_URL: "127.0.0.1:6379" }, { clientDir: null })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// address, not "127.0.0.1:6379".',
    );
    expect(() => configFromEnv({ REDIS_URL: "http://cache" }, { clientDir: null })).toThrow(ConfigError);
    expect(() => configFromEnv({ PODIUM_REDIS_PREFIX: "a*" }, { clientDir: null })).toThrow(/PODIUM_REDIS_PREFIX/);
    expect(() => configFromEnv({ PODIUM_DRAIN_SECONDS: "-1" }, { clientDir: null })).toThrow(
      'PODIUM_DRAIN_SECONDS must be a number of seconds from 0 to 300, not "-1".',
    );
    expect(() => configFromEnv({ PODIUM_DRAIN_SECONDS: "soon" }, { clientDir: null })).toThrow(ConfigError);
  });
});

describe("issue 14 items 1–2: the usage-event pipeline's settings", () => {
  const events = (env: NodeJS.ProcessEnv) => configFromEnv(env, { clientDir: null }).events;

  it("queues in the process by default, bounded by PODIUM_EVENT_QUEUE", () => {
    expect(events({})).toEqual({
      natsUrl: null,
      stream: DEFAULT_EVENT_STREAM,
      streamMaxBytes: DEFAULT_EVENT_STREAM_MB * 1024 * 1024,
      queueLimit: DEFAULT_EVENT_QUEUE_LIMIT,
      drainMaxMs: EVENT_DRAIN_MAX_MS,
    });
    expect(events({ PODIUM_EVENT_QUEUE: "500" }).queueLimit).toBe(500);
    expect(() => events({ PODIUM_EVENT_QUEUE: "0" })).toThrow("PODIUM_EVENT_QUEUE must be a positive whole number.");
  });

  it("uses JetStream when NATS_URL is set, with the stream PODIUM_EVENT_STREAM names", () => {
    const settings = events({
      NATS_URL: "nats://127.0.0.1:4222",
      PODIUM_EVENT_STREAM: "EVENTS_2",
      PODIUM_EVENT_STREAM_MB: "8",
    });
    expect(settings).toMatchObject({
      natsUrl: "nats://127.0.0.1:4222",
      stream: "EVENTS_2",
      streamMaxBytes: 8 * 1024 * 1024,
    });
  });

  it("refuses a NATS_URL that isn't one and a stream name JetStream wouldn't take, saying what is expected", () => {
    expect(() => events({ NATS_URL: "127.0.0.1:4222" })).toThrow(ConfigError);
    expect(() => events({ NATS_URL: "127.0.0.1:4222" })).toThrow(
      /NATS_URL must be a NATS server URL such as nats:\/\//,
    );
    expect(() => events({ PODIUM_EVENT_STREAM: "has.dots" })).toThrow(/PODIUM_EVENT_STREAM must be 1 to 64 letters/);
  });
});
