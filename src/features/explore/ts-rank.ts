/**
 * Issue 32 item 3: PostgreSQL's ts_rank, computed in the process for the search index in memory
 * (search-memory.ts), so a search ranks its candidates exactly as the SQL search does
 * (repository.ts: `ts_rank('{0, 0, 0.4, 1}', title_vector, q)`).
 *
 * A port of calc_rank_or and calc_rank_and (src/backend/utils/adt/tsrank.c, PostgreSQL 15–17,
 * normalisation 0). PostgreSQL computes in single precision (float4): every value a C float holds
 * is rounded here with Math.fround, so ties and orders come out as the database's.
 * ts-rank.test.ts compares it with the database's own ts_rank on thousands of vectors and queries.
 */

/** A tsvector as PostgreSQL prints it, read: lexemes in its order, each with positions and weights. */
export interface ParsedVector {
  lexemes: readonly string[];
  /** Per lexeme, its positions (1–16383) in order. */
  positions: readonly (readonly number[])[];
  /** Per lexeme, the weight class of each position: 3 A, 2 B, 1 C, 0 D. */
  weights: readonly (readonly number[])[];
}

/** One operand of a tsquery: a lexeme, maybe a prefix (`'word':*`). */
export interface RankOperand {
  word: string;
  prefix: boolean;
}

/** What ts_rank reads of a query: its top operator and its operands (negated ones too: "XXX: What about NOT?"). */
export interface RankQuery {
  /** "and" when the query's root is &, "or" for | or a single operand (or a negation). */
  root: "and" | "or";
  /** Every operand, sorted and without repeats as SortAndUniqItems leaves them. */
  operands: readonly RankOperand[];
}

/** The weights of ts_rank('{D, C, B, A}', …), indexed by weight class, as float4. */
export type RankWeights = readonly [number, number, number, number];

const f = Math.fround;
/** tsrank.c: limit of Σ 1/i² (π²/6), a double. */
const PI_SQUARED_OVER_6 = 1.64493406685;
/** ts_type.h: the largest position; a lexeme without positions stands at MAXENTRYPOS - 1. */
const MAXENTRYPOS = 1 << 14;

const WEIGHT_CLASS: Record<string, number> = { A: 3, B: 2, C: 1, D: 0 };

/** Parses tsvector output (`'a':1A,3 'b''s':2`): quotes doubled, backslashes escaped. */
export function parseTsvector(text: string): ParsedVector {
  const lexemes: string[] = [];
  const positions: number[][] = [];
  const weights: number[][] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === " ") {
      i += 1;
      continue;
    }
    if (text[i] !== "'") throw new Error(`not a tsvector: ${text.slice(i, i + 20)}`);
    i += 1;
    let lexeme = "";
    for (;;) {
      const char = text[i];
      if (char === undefined) throw new Error("not a tsvector: an open quote");
      if (char === "\\") {
        lexeme += text[i + 1] ?? "";
        i += 2;
      } else if (char === "'") {
        if (text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else {
          i += 1;
          break;
        }
      } else {
        lexeme += char;
        i += 1;
      }
    }
    const read = readPositions(text, i);
    i = read.next;
    const at = read.at;
    const classes = read.classes;
    lexemes.push(lexeme);
    positions.push(at);
    weights.push(classes);
  }
  return { lexemes, positions, weights };
}

/** A lexeme's positions as printed after it (`:1A,3`), none when no colon follows; and where reading ended. */
function readPositions(text: string, from: number): { at: number[]; classes: number[]; next: number } {
  const at: number[] = [];
  const classes: number[] = [];
  let i = from;
  if (text[i] !== ":") return { at, classes, next: i };
  i += 1;
  for (;;) {
    let digits = 0;
    let value = 0;
    while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) {
      value = value * 10 + (text.charCodeAt(i) - 48);
      i += 1;
      digits += 1;
    }
    if (digits === 0) throw new Error("not a tsvector: a position without digits");
    const weight = WEIGHT_CLASS[text[i] ?? ""];
    if (weight !== undefined) i += 1;
    at.push(value);
    classes.push(weight ?? 0);
    if (text[i] !== ",") break;
    i += 1;
  }
  return { at, classes, next: i };
}

/** tsCompareString without prefix: bytes compared as unsigned, then the shorter first. */
export function compareLexemes(a: string, b: string): number {
  if (a === b) return 0;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

/**
 * The operands as SortAndUniqItems leaves them: sorted, repeats dropped. Null when a word comes
 * twice with a different prefix flag (which of the two PostgreSQL keeps depends on its sort).
 */
export function uniqueOperands(operands: readonly RankOperand[]): RankOperand[] | null {
  const sorted = [...operands].sort((a, b) => compareLexemes(a.word, b.word));
  const kept: RankOperand[] = [];
  for (const operand of sorted) {
    const last = kept.at(-1);
    if (last && last.word === operand.word) {
      if (last.prefix !== operand.prefix) return null;
      continue;
    }
    kept.push(operand);
  }
  return kept;
}

/** find_wordentry: the positions of the vector's lexemes the operand names (a prefix: every one it starts), in the vector's order. */
function entriesOf(vector: ParsedVector, operand: RankOperand): Positions[] {
  const found: Positions[] = [];
  const { lexemes } = vector;
  for (let i = 0; i < lexemes.length; i += 1) {
    const lexeme = lexemes[i] as string;
    if (operand.prefix ? lexeme.startsWith(operand.word) : lexeme === operand.word) {
      const at = vector.positions[i] as readonly number[];
      // A lexeme without positions stands at MAXENTRYPOS - 1 with weight D.
      found.push(at.length > 0 ? { at, classes: vector.weights[i] as readonly number[] } : POSNULL);
    }
  }
  return found;
}

/**
 * entriesOf read straight from the printed vector, for an operand of plain letters or digits: only
 * the lexemes it names are read (a title's other words are never parsed).
 */
function entriesInText(text: string, operand: RankOperand): Positions[] {
  const found: Positions[] = [];
  const needle = `'${operand.word}`;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    // A lexeme starts the text or follows a space (a quote inside one is doubled, never after a space).
    if (at > 0 && text[at - 1] !== " ") continue;
    let i = at + needle.length;
    let exact = true;
    // To the lexeme's closing quote.
    for (;;) {
      const char = text[i];
      if (char === undefined) return found;
      if (char === "\\") {
        i += 2;
        exact = false;
      } else if (char === "'") {
        if (text[i + 1] === "'") {
          i += 2;
          exact = false;
        } else break;
      } else {
        i += 1;
        exact = false;
      }
    }
    i += 1;
    if (!operand.prefix && !exact) continue;
    const { at: positions, classes } = readPositions(text, i);
    found.push(positions.length > 0 ? { at: positions, classes } : POSNULL);
  }
  return found;
}

/** tsrank.c word_distance: a float4. */
function wordDistance(distance: number): number {
  if (distance > 100) return f(1e-30);
  return f(1.0 / (1.005 + 0.05 * Math.exp(f(distance) / 1.5 - 2)));
}

interface Positions {
  at: readonly number[];
  classes: readonly number[];
}

function rankAnd(w: RankWeights, entries: readonly (readonly Positions[])[]): number {
  let res = f(-1.0);
  const pos: (Positions | null)[] = entries.map(() => null);
  for (let i = 0; i < entries.length; i += 1) {
    for (const current of entries[i] as readonly Positions[]) {
      pos[i] = current;
      for (let k = 0; k < i; k += 1) {
        const other = pos[k];
        if (!other) continue;
        for (let l = 0; l < current.at.length; l += 1) {
          for (let p = 0; p < other.at.length; p += 1) {
            let dist = Math.abs((current.at[l] as number) - (other.at[p] as number));
            if (dist || current === POSNULL || other === POSNULL) {
              if (!dist) dist = MAXENTRYPOS;
              const product = f(
                f((w[current.classes[l] as number] as number) * (w[other.classes[p] as number] as number)) *
                  wordDistance(dist),
              );
              const curw = f(Math.sqrt(product));
              res = res < 0 ? curw : f(1.0 - (1.0 - res) * (1.0 - curw));
            }
          }
        }
      }
    }
  }
  return res;
}

const POSNULL: Positions = { at: [MAXENTRYPOS - 1], classes: [0] };

function rankOr(w: RankWeights, entries: readonly (readonly Positions[])[]): number {
  let res = f(0.0);
  for (const list of entries) for (const { classes } of list) res = orRankPlus(res, orTerm(w, classes));
  return orRankOf(res, entries.length);
}

/** What one lexeme found adds to calc_rank_or's sum (a float4), from its positions' weight classes. */
function orTerm(w: RankWeights, classes: readonly number[]): number {
  let resj = f(0.0);
  let wjm = f(-1.0);
  let jm = 0;
  for (let j = 0; j < classes.length; j += 1) {
    const weight = w[classes[j] as number] as number;
    resj = f(resj + f(weight / ((j + 1) * (j + 1))));
    if (weight > wjm) {
      wjm = weight;
      jm = j;
    }
  }
  // (wjm + resj - wjm / (jm+1)²) in float4.
  return f(f(wjm + resj) - f(wjm / ((jm + 1) * (jm + 1))));
}

/**
 * Issue 32 item 3: what each lexeme of a vector adds to calc_rank_or's sum, whichever operand
 * names it (it depends on its weights only), in the vector's order. A query whose root is an OR
 * (one word, words joined by OR) is then ranked without reading the vector: its sum taken with
 * orRankPlus, operand by operand and, within one, in the vector's order (the lexemes' byte order,
 * compareLexemes), ended by orRankOf.
 */
export function orTermsOf(w: RankWeights, vector: ParsedVector): number[] {
  return vector.lexemes.map((_, i) =>
    orTerm(
      w,
      (vector.positions[i] as readonly number[]).length > 0 ? (vector.weights[i] as number[]) : POSNULL.classes,
    ),
  );
}

/** calc_rank_or's sum with one term more: the term (a float4) divided by a double, added to a float4. */
export function orRankPlus(sum: number, term: number): number {
  return f(sum + term / PI_SQUARED_OVER_6);
}

/** calc_rank_or's result from its sum over a query of `operandCount` operands. */
export function orRankOf(sum: number, operandCount: number): number {
  return operandCount > 0 ? f(sum / operandCount) : sum;
}

/** ts_rank(w, vector, query) with normalisation 0, as PostgreSQL computes it (a float4). */
export function tsRank(w: RankWeights, vector: ParsedVector, query: RankQuery): number {
  if (vector.lexemes.length === 0) return 0;
  return rankOfEntries(
    w,
    query,
    query.operands.map((operand) => entriesOf(vector, operand)),
  );
}

/**
 * tsRank of a vector as PostgreSQL prints it, reading only the lexemes the query names: for
 * operands of plain letters or digits (search-memory.ts takes no others).
 */
export function tsRankText(w: RankWeights, text: string, query: RankQuery): number {
  if (text === "") return 0;
  return rankOfEntries(
    w,
    query,
    query.operands.map((operand) => entriesInText(text, operand)),
  );
}

/** Whether a printed vector holds the operand (a prefix: a lexeme it starts), reading only what it names. */
export function textHas(text: string, operand: RankOperand): boolean {
  return entriesInText(text, operand).length > 0;
}

function rankOfEntries(w: RankWeights, query: RankQuery, entries: readonly (readonly Positions[])[]): number {
  if (entries.length === 0) return 0;
  const res = query.root === "and" && entries.length >= 2 ? rankAnd(w, entries) : rankOr(w, entries);
  return res < 0 ? f(1e-20) : res;
}
