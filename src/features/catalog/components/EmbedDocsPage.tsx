import { type FormEvent, useEffect, useRef, useState } from "react";
import { FormattedMessage, type MessageValues, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { MessageLabel } from "../../../ui/Form";
import { PageIntro } from "../../../ui/PageIntro";
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
      <PageIntro as="section" className="home-hero" title="dev.embed.title" lead="dev.embed.lead" />

      <section className="panel" aria-labelledby="embed-docs-code">
        <DocHeading level={2} id="embed-docs-code" title="dev.embed.code.title" body="dev.embed.code.body" />
        <CodeBlock code={sample} />
        <CodeList title="dev.embed.params.title" items={PARAMS} />
      </section>

      <section className="panel" aria-labelledby="embed-docs-api">
        <DocHeading
          level={2}
          id="embed-docs-api"
          title="dev.embed.api.title"
          body="dev.embed.api.body"
          bodyValues={{ path: <code>{EMBED_API_CLIENT_PATH}</code> }}
        />
        <CodeBlock code={USAGE} />
        <CodeList title="dev.embed.methods.title" items={METHODS} />
        <CodeList title="dev.embed.events.title" items={EVENTS} />
        <DocHeading level={3} title="dev.embed.messages.title" body="dev.embed.messages.body" />
        <CodeBlock code={MESSAGES} />
        <DocHeading level={3} title="dev.embed.hosts.title" body="dev.embed.hosts.body" />
      </section>

      {demo ? <LiveExample demo={demo} /> : null}
    </div>
  );
}

/** A heading of the page (h2 with its id, or h3) and the paragraph under it. */
function DocHeading({
  level,
  id,
  title,
  body,
  bodyValues,
}: {
  level: 2 | 3;
  id?: string;
  title: MessageId;
  body: MessageId;
  bodyValues?: MessageValues;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <>
      <Heading id={id}>
        <FormattedMessage id={title} />
      </Heading>
      <p>
        <FormattedMessage id={body} values={bodyValues} />
      </p>
    </>
  );
}

function CodeBlock({ code }: { code: string }) {
  return (
    <pre className="embed-docs__code">
      <code>{code}</code>
    </pre>
  );
}

/** A titled list of code (a parameter, method or event) and what it does. */
function CodeList({ title, items }: { title: MessageId; items: [string, MessageId][] }) {
  return (
    <>
      <h3>
        <FormattedMessage id={title} />
      </h3>
      <dl className="embed-docs__list">
        {items.map(([code, description]) => (
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
    </>
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
      <DocHeading level={2} id="embed-docs-live" title="dev.embed.live.title" body="dev.embed.live.body" />
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
          <MessageLabel htmlFor="embed-docs-step" message="dev.embed.live.step" />
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
