import { type FormEvent, useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { EMBED_API_CLIENT_PATH } from "../../embed/embed-api-client";
import { EMBED_CONTROLS_HEIGHT, responsiveEmbedSnippet } from "../../embed/embed-dimensions";

/** Issue 34 item 4: the deck the developers page's live example embeds (a staff pick), if any. */
export interface EmbedDocsDemo {
  oid: string;
  title: string;
  pageAspect: number;
  stepCount: number;
}

/** What /embed-api.js puts on window (embed-api-client.ts). */
interface EmbedState {
  step: number;
  total: number;
  playing: boolean;
  ended: boolean;
}
interface PodiumEmbedClient {
  ready: Promise<EmbedState>;
  next(): Promise<unknown>;
  prev(): Promise<unknown>;
  goTo(step: number): Promise<unknown>;
  getState(): Promise<EmbedState>;
  on(event: string, listener: (state: EmbedState) => void): PodiumEmbedClient;
}
declare global {
  interface Window {
    PodiumEmbed?: (frame: HTMLIFrameElement) => PodiumEmbedClient;
  }
}

const PARAMS: [string, MessageId][] = [
  ["start=3", "dev.embed.param.start"],
  ["autoplay=1", "dev.embed.param.autoplay"],
  ["loop=1", "dev.embed.param.loop"],
  ["controls=0", "dev.embed.param.controls"],
  ["title=0", "dev.embed.param.title"],
  ["chrome=light", "dev.embed.param.chrome"],
];
const METHODS: [string, MessageId][] = [
  ["next()", "dev.embed.method.next"],
  ["prev()", "dev.embed.method.prev"],
  ["goTo(step)", "dev.embed.method.goTo"],
  ["getState()", "dev.embed.method.getState"],
  ["getSteps()", "dev.embed.method.getSteps"],
];
const EVENTS: [string, MessageId][] = [
  ["ready", "dev.embed.event.ready"],
  ["stepchange", "dev.embed.event.stepchange"],
  ["ended", "dev.embed.event.ended"],
];

const USAGE = `<script src="https://podium.example${EMBED_API_CLIENT_PATH}"></script>
<script>
  const deck = PodiumEmbed(document.querySelector("iframe"));
  deck.on("stepchange", (state) => console.log(state.step, state.total));
  deck.on("ended", () => console.log("The end"));
  document.querySelector("#next").onclick = () => deck.next();
  deck.goTo(3).then(() => deck.getState()).then((state) => console.log(state));
</script>`;

const MESSAGES = `// to the frame
{ "podium": 1, "method": "goTo", "step": 3, "id": "a1" }
// answer
{ "podium": 1, "id": "a1", "result": true }
// events
{ "podium": 1, "event": "stepchange", "step": 3, "total": 12, "playing": true, "ended": false }`;

/** Issue 34 item 4: /developers/embed/, the embed code, its options, the API and a live example. */
export function EmbedDocsPage({ demo }: { demo: EmbedDocsDemo | null }) {
  const [origin, setOrigin] = useState("https://podium.example");
  useEffect(() => setOrigin(window.location.origin), []);
  const sample = responsiveEmbedSnippet(
    origin,
    demo?.oid ?? "abcdefghijkl",
    demo?.pageAspect ?? 16 / 9,
    demo?.title ?? "Podium",
  );
  return (
    <div className="catalog embed-docs">
      <section className="home-hero">
        <h1>
          <FormattedMessage id="dev.embed.title" />
        </h1>
        <p>
          <FormattedMessage id="dev.embed.lead" />
        </p>
      </section>

      <section className="panel" aria-labelledby="embed-docs-code">
        <h2 id="embed-docs-code">
          <FormattedMessage id="dev.embed.code.title" />
        </h2>
        <p>
          <FormattedMessage id="dev.embed.code.body" />
        </p>
        <pre className="embed-docs__code">
          <code>{sample}</code>
        </pre>
        <h3>
          <FormattedMessage id="dev.embed.params.title" />
        </h3>
        <dl className="embed-docs__list">
          {PARAMS.map(([code, description]) => (
            <div key={code}>
              <dt>
                <code>{code}</code>
              </dt>
              <dd>
                <FormattedMessage id={description} />
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="panel" aria-labelledby="embed-docs-api">
        <h2 id="embed-docs-api">
          <FormattedMessage id="dev.embed.api.title" />
        </h2>
        <p>
          <FormattedMessage id="dev.embed.api.body" values={{ path: <code>{EMBED_API_CLIENT_PATH}</code> }} />
        </p>
        <pre className="embed-docs__code">
          <code>{USAGE}</code>
        </pre>
        <h3>
          <FormattedMessage id="dev.embed.methods.title" />
        </h3>
        <dl className="embed-docs__list">
          {METHODS.map(([code, description]) => (
            <div key={code}>
              <dt>
                <code>{code}</code>
              </dt>
              <dd>
                <FormattedMessage id={description} />
              </dd>
            </div>
          ))}
        </dl>
        <h3>
          <FormattedMessage id="dev.embed.events.title" />
        </h3>
        <dl className="embed-docs__list">
          {EVENTS.map(([code, description]) => (
            <div key={code}>
              <dt>
                <code>{code}</code>
              </dt>
              <dd>
                <FormattedMessage id={description} />
              </dd>
            </div>
          ))}
        </dl>
        <h3>
          <FormattedMessage id="dev.embed.messages.title" />
        </h3>
        <p>
          <FormattedMessage id="dev.embed.messages.body" />
        </p>
        <pre className="embed-docs__code">
          <code>{MESSAGES}</code>
        </pre>
        <h3>
          <FormattedMessage id="dev.embed.hosts.title" />
        </h3>
        <p>
          <FormattedMessage id="dev.embed.hosts.body" />
        </p>
      </section>

      {demo ? <LiveExample demo={demo} /> : null}
    </div>
  );
}

function LiveExample({ demo }: { demo: EmbedDocsDemo }) {
  const intl = useIntl();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const deckRef = useRef<PodiumEmbedClient | null>(null);
  const [state, setState] = useState<EmbedState | null>(null);
  const [log, setLog] = useState<string[]>([]);
  const [target, setTarget] = useState("2");

  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    let cancelled = false;
    const start = () => {
      if (cancelled || !window.PodiumEmbed) return;
      const deck = window.PodiumEmbed(frame);
      deckRef.current = deck;
      for (const name of ["ready", "stepchange", "ended"]) {
        deck.on(name, (next) => {
          if (cancelled) return;
          setState(next);
          setLog((lines) => [...lines.slice(-4), `${name}: ${next.step}/${next.total}`]);
        });
      }
      void deck.ready.then((ready) => !cancelled && setState(ready));
    };
    if (window.PodiumEmbed) start();
    else {
      const script = document.createElement("script");
      script.src = EMBED_API_CLIENT_PATH;
      script.addEventListener("load", start);
      document.head.append(script);
    }
    return () => {
      cancelled = true;
    };
  }, []);

  const refresh = () => deckRef.current?.getState().then(setState);
  const goTo = (event: FormEvent) => {
    event.preventDefault();
    const step = Number(target);
    if (Number.isInteger(step) && step >= 1) void deckRef.current?.goTo(step).then(refresh);
  };

  return (
    <section className="panel" aria-labelledby="embed-docs-live">
      <h2 id="embed-docs-live">
        <FormattedMessage id="dev.embed.live.title" />
      </h2>
      <p>
        <FormattedMessage id="dev.embed.live.body" />
      </p>
      <div
        className="embed-docs__frame"
        // The embed code's shape: the page's, plus the player's control bar.
        style={{ paddingBottom: `calc(${Number((100 / demo.pageAspect).toFixed(2))}% + ${EMBED_CONTROLS_HEIGHT}px)` }}
      >
        <iframe ref={frameRef} src={`/p/embed/${demo.oid}/`} title={demo.title} allow="autoplay; fullscreen" />
      </div>
      <div className="embed-docs__controls">
        <button type="button" className="button" onClick={() => void deckRef.current?.prev().then(refresh)}>
          <FormattedMessage id="dev.embed.live.prev" />
        </button>
        <button type="button" className="button" onClick={() => void deckRef.current?.next().then(refresh)}>
          <FormattedMessage id="dev.embed.live.next" />
        </button>
        <form className="embed-docs__goto" onSubmit={goTo}>
          <label htmlFor="embed-docs-step">
            <FormattedMessage id="dev.embed.live.step" />
          </label>
          <input
            id="embed-docs-step"
            type="number"
            min={1}
            max={demo.stepCount}
            value={target}
            onChange={(event) => setTarget(event.currentTarget.value)}
          />
          <button type="submit" className="button">
            <FormattedMessage id="dev.embed.live.goTo" />
          </button>
        </form>
      </div>
      <p className="embed-docs__state" aria-live="polite" data-testid="embed-docs-state">
        {state
          ? intl.formatMessage(
              { id: state.ended ? "dev.embed.live.ended" : "dev.embed.live.state" },
              { step: state.step, total: state.total },
            )
          : intl.formatMessage({ id: "dev.embed.live.waiting" })}
      </p>
      <h3>
        <FormattedMessage id="dev.embed.live.events" />
      </h3>
      <ul className="embed-docs__log" data-testid="embed-docs-log">
        {log.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a log's lines repeat; their order is their identity
          <li key={index}>
            <code>{line}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
