import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import {
  compareLexemes,
  orRankOf,
  orRankPlus,
  orTermsOf,
  parseTsvector,
  type RankOperand,
  type RankQuery,
  type RankWeights,
  tsRank,
  tsRankText,
  uniqueOperands,
} from "./ts-rank";

/**
 * A query whose root is an OR ranked as the index in memory ranks it (search-memory.ts): from each
 * lexeme's term, operand by operand, the lexemes an operand names in byte order. Null for an AND.
 */
function rankFromTerms(weights: RankWeights, vector: string, rank: RankQuery): number | null {
  if (rank.root !== "or" && rank.operands.length > 1) return null;
  const parsed = parseTsvector(vector);
  const terms = orTermsOf(weights, parsed);
  let sum = 0;
  for (const { word, prefix } of rank.operands) {
    const named = parsed.lexemes
      .map((lexeme, i) => ({ lexeme, term: terms[i] as number }))
      .filter(({ lexeme }) => (prefix ? lexeme.startsWith(word) : lexeme === word))
      .sort((a, b) => compareLexemes(a.lexeme, b.lexeme));
    for (const { term } of named) sum = orRankPlus(sum, term);
  }
  return orRankOf(sum, rank.operands.length);
}

/**
 * Issue 32 item 3: the search index in memory ranks as PostgreSQL does. Titles and tags of random
 * words from a small vocabulary (so words repeat, share prefixes and stand at every distance) are
 * made into title vectors by the database; random queries (one word, AND, OR, excluded words,
 * prefixes) are ranked by the database's ts_rank and by tsRank, which must agree to the last bit
 * of the float4, with both weight sets the search uses.
 */

const VOCABULARY = [
  "bread",
  "breads",
  "sour",
  "sourdough",
  "dough",
  "yeast",
  "rye",
  "wild",
  "starter",
  "bake",
  "baker",
  "the",
  "a",
  "of",
  "2024",
  "mp3",
];

/** A repeatable sequence of numbers in [0, 1) (mulberry32), so a failure can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const words = (next: () => number, most: number) =>
  Array.from({ length: 1 + Math.floor(next() * most) }, () => pick(next, VOCABULARY));

interface Case {
  title: string;
  tags: string;
  /** The tsquery text, as search.ts writes it. */
  query: string;
  rank: RankQuery;
}

function randomCase(next: () => number): Case | null {
  const groupCount = 1 + Math.floor(next() * 3);
  const groups: { words: RankOperand[]; negated: boolean }[] = [];
  for (let g = 0; g < groupCount; g += 1) {
    const negated = g > 0 && next() < 0.2;
    const size = negated ? 1 : 1 + Math.floor(next() * 2);
    groups.push({
      negated,
      words: Array.from({ length: size }, () => {
        const word = pick(next, VOCABULARY);
        return { word, prefix: word.length >= 4 && next() < 0.7 };
      }),
    });
  }
  const operand = ({ word, prefix }: RankOperand) => `'${word}'${prefix ? ":*" : ""}`;
  const query = groups
    .map((group) => {
      const body = group.words.map(operand).join(" | ");
      return group.negated ? `!${body}` : group.words.length > 1 ? `(${body})` : body;
    })
    .join(" & ");
  const operands = uniqueOperands(groups.flatMap((group) => group.words));
  if (!operands) return null;
  return {
    title: words(next, 8).join(" "),
    tags: words(next, 4).join(" "),
    query,
    rank: { root: groups.length > 1 ? "and" : "or", operands },
  };
}

const WEIGHT_SETS: { name: string; sql: string; weights: RankWeights }[] = [
  { name: "search's", sql: "'{0, 0, 0.4, 1}'", weights: [0, 0, Math.fround(0.4), 1] },
  {
    name: "ts_rank's own",
    sql: "'{0.1, 0.2, 0.4, 1}'",
    weights: [Math.fround(0.1), Math.fround(0.2), Math.fround(0.4), 1],
  },
];

describe.each(testDatabaseTargets())("issue 32 ts_rank in the process agrees with $name's", (target) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await target.create());
  });

  afterAll(async () => {
    await drop();
  });

  it("ranks 2,000 random titles and queries to the same float4, with both weight sets", async () => {
    const next = random(32);
    const cases: Case[] = [];
    while (cases.length < 2_000) {
      const made = randomCase(next);
      if (made) cases.push(made);
    }
    for (const { sql, weights } of WEIGHT_SETS) {
      const rows = await db.query<{ vector: string; rank: string }>(
        `select v::text as vector, ts_rank(${sql}::float4[], v, to_tsquery('simple', c.query))::text as rank
           from unnest($1::text[], $2::text[], $3::text[]) with ordinality as c(title, tags, query, n),
                lateral (select setweight(to_tsvector('simple', c.title), 'A')
                                || setweight(to_tsvector('simple', c.tags), 'B') as v) x
          order by c.n`,
        [cases.map((c) => c.title), cases.map((c) => c.tags), cases.map((c) => c.query)],
      );
      const differing = rows
        .map((row, i) => {
          const expected = Math.fround(Number.parseFloat(row.rank));
          const actual = tsRank(weights, parseTsvector(row.vector), (cases[i] as Case).rank);
          // Read straight from the printed vector (what the index in memory ranks with).
          const fromText = tsRankText(weights, row.vector, (cases[i] as Case).rank);
          // And, for a query whose root is an OR, from the lexemes' terms (as the index ranks it).
          const fromTerms = rankFromTerms(weights, row.vector, (cases[i] as Case).rank);
          return actual === expected && fromText === expected && (fromTerms === null || fromTerms === expected)
            ? null
            : { case: cases[i], vector: row.vector, expected, actual, fromText, fromTerms };
        })
        .filter((difference) => difference !== null);
      expect(differing.slice(0, 3)).toEqual([]);
      // Not all the same: titles hit and missed, ANDs that met and didn't, ORs ranked from terms.
      expect(new Set(rows.map((row) => row.rank)).size).toBeGreaterThan(50);
      expect(cases.filter((c) => c.rank.root === "or").length).toBeGreaterThan(500);
    }
  });

  it("reads the vectors PostgreSQL prints: quotes, backslashes, lexemes without positions", async () => {
    const rows = await db.query<{ vector: string }>(`select $1::tsvector::text as vector`, [
      "'it''s':1A,3 'back\\\\slash':2B 'bare' 'c':4C",
    ]);
    const parsed = parseTsvector((rows[0] as { vector: string }).vector);
    expect([...parsed.lexemes].sort()).toEqual(["back\\slash", "bare", "c", "it's"]);
    const at = (lexeme: string) => parsed.lexemes.indexOf(lexeme);
    expect(parsed.positions[at("it's")]).toEqual([1, 3]);
    expect(parsed.weights[at("it's")]).toEqual([3, 0]);
    expect(parsed.positions[at("bare")]).toEqual([]);
    expect(parsed.weights[at("back\\slash")]).toEqual([2]);
  });
});
