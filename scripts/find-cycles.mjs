// Circles in an import graph (issue 11, item 5): used by check-layers.mjs for the graph of files
// under src/ and for the graph of features (src/features/X importing src/features/Y). Pure: no
// file system, so the test (find-cycles.test.ts) feeds it small graphs.

/**
 * The circles of a directed graph, one per knot (strongly connected component of two or more
 * nodes, or a node importing itself): the shortest circle through the knot's first node in
 * sorted order, as a list of nodes that starts and ends with that node. Sorted, so the answer
 * doesn't depend on the order the graph was read in. Fixing the circle shown may reveal another
 * one in the same knot on the next run.
 * @param {Map<string, Iterable<string>>} graph node → the nodes it imports
 * @returns {string[][]}
 */
export function findCycles(graph) {
  const edges = new Map();
  for (const [node, targets] of graph) {
    edges.set(node, [...new Set(targets)].sort());
    for (const target of edges.get(node)) if (!graph.has(target)) edges.set(target, edges.get(target) ?? []);
  }
  const cycles = [];
  for (const knot of stronglyConnected(edges)) {
    const start = [...knot].sort()[0];
    const selfLoop = edges.get(start).includes(start);
    if (knot.size < 2 && !selfLoop) continue;
    cycles.push(selfLoop ? [start, start] : shortestCircle(edges, knot, start));
  }
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** "a → b → a". */
export function describeCycle(cycle) {
  return cycle.join(" → ");
}

/**
 * The feature a file under src/ belongs to ("features/explore/service" → "explore"), or null for
 * files outside src/features/<feature>/ (the contracts beside the features, like features/http.ts).
 * @param {string} path relative to src/, with or without its extension
 */
export function featureOf(path) {
  const parts = path.split("/");
  return parts[0] === "features" && parts.length > 2 ? parts[1] : null;
}

/**
 * Tarjan's strongly connected components, iterative (no recursion however deep the imports go).
 * @param {Map<string, string[]>} edges
 * @returns {Set<string>[]}
 */
function stronglyConnected(edges) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let counter = 0;
  for (const root of [...edges.keys()].sort()) {
    if (index.has(root)) continue;
    // Each frame: a node and how many of its targets have been visited.
    const frames = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter);
    counter += 1;
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const [node, next] = frame;
      const targets = edges.get(node);
      if (next < targets.length) {
        frame[1] += 1;
        const target = targets[next];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter);
          counter += 1;
          stack.push(target);
          onStack.add(target);
          frames.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = new Set();
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.add(member);
        } while (member !== node);
        components.push(component);
      }
    }
  }
  return components;
}

/** Breadth-first from start, inside the knot, back to start: the fewest imports round. */
function shortestCircle(edges, knot, start) {
  const cameFrom = new Map();
  const queue = [start];
  for (let at = 0; at < queue.length; at += 1) {
    const node = queue[at];
    for (const target of edges.get(node)) {
      if (!knot.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let step = node; step !== start; step = cameFrom.get(step)) path.push(step);
        path.push(start);
        // The path was collected backwards from the import that closes the circle.
        return [start, ...path.slice(1, -1).reverse(), start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  throw new Error(`no circle through ${start}: not a knot`);
}
