// CUDA graphs for a host program (CUDA Runtime API, "Graph Management" and "Stream Capture"):
// work recorded as nodes with dependencies — built with the graph API, or captured from streams
// between cudaStreamBeginCapture and cudaStreamEndCapture, events carrying dependencies from one
// stream to another — then instantiated and launched. The simulator runs one operation at a time
// to completion, so a launch runs the nodes one after another in an order their dependencies
// allow (creation order among independent nodes). A node keeps what its parameters said when it
// was made: a kernel node its arguments' values, a memcpy node its cudaMemcpy3DParms.
// Conditional nodes (if, if/else, while, switch) run their body graphs as the value device code
// gave their handle says (cudaGraphSetConditional). Executable-graph updates and device-side
// graph launches stay refused (`not supported: … (CUDA graphs)`, ./cudaImports.ts).
import { pointerAllocation, pointerOffset } from '../../gpu/memory';
import { callHostFunction, callSite, HostStop, placeText, type HostContext } from './hostContext';
import type { Dim3, PreparedLaunch } from './launchCalls';

type Fn = (...args: number[]) => number;
/** What a node does when its graph runs: the error code of the operation. */
type Work = () => number;

/** cudaGraphNodeType. */
const NODE = { kernel: 0, memcpy: 1, memset: 2, host: 3, graph: 4, empty: 5, waitEvent: 6, eventRecord: 7, memFree: 11, conditional: 13 } as const;
/** cudaGraphConditionalNodeType. */
const COND_IF = 0;
const COND_WHILE = 1;
const COND_SWITCH = 2;
/** cudaGraphCondAssignDefault: the handle takes its default value at each launch of its graph. */
const ASSIGN_DEFAULT = 1;
/** Iterations of a while node after which the run is stopped (its body never clears the condition). */
const WHILE_LIMIT = 1 << 24;
/** cudaStreamCaptureStatus. */
const CAPTURE_NONE = 0;
const CAPTURE_ACTIVE = 1;

/** Field offsets (wasm32; checked against layouts.json by the tests). */
export const GRAPH_LAYOUTS = {
  cudaKernelNodeParams: { size: 40, func: 0, gridDim: 4, blockDim: 16, sharedMemBytes: 28, kernelParams: 32 },
  cudaMemsetParams: { size: 24, dst: 0, pitch: 4, value: 8, elementSize: 12, width: 16, height: 20 },
  cudaHostNodeParams: { size: 8, fn: 0, userData: 4 },
  /** The generic form (cudaGraphAddNode): the type, then the node's parameters at `params`. */
  cudaGraphNodeParams: { size: 256, type: 0, kernel: 16, memset: 16, host: 16, graph: 16, eventRecord: 16, free: 16, conditional: 16 },
  /** `size_`: the field `size` (the struct's own size is `size`). */
  cudaConditionalNodeParams: { size: 24, handle: 0, type: 8, size_: 12, phGraph_out: 16 },
} as const;
const L = GRAPH_LAYOUTS;

interface GraphNode {
  handle: number;
  type: number;
  deps: GraphNode[];
  work: Work;
  /** A child-graph node's graph (its own copy). */
  child?: Graph;
  /** A conditional node: its handle, kind and body graphs. */
  conditional?: { handle: number; kind: number; bodies: Graph[] };
}

interface Graph {
  handle: number;
  nodes: GraphNode[];
  /** Conditional handles made for this graph: given their default at each launch when asked to. */
  conditions: { handle: number; value: number }[];
}

/** A stream capture: the graph it fills, and per captured stream the nodes its next work depends on. */
interface Capture {
  graph: Graph;
  origin: number;
  id: number;
  tails: Map<number, GraphNode[]>;
  /** Where cudaStreamGetCaptureInfo last wrote the dependencies (program memory, reused). */
  depsBuffer?: { at: number; capacity: number };
}

/** What the graph calls need of the others: prepared launches and 3D copies, and the one stream-ordered table. */
export interface GraphSupport {
  prepareLaunch(stub: number, grid: Dim3, block: Dim3, argsAt: number, shared: number): PreparedLaunch | number;
  prepareCopy3D(parms: number): Work | number;
  dim3(at: number): Dim3;
  /** Every runtime call the program can make, for the work a captured call records. */
  calls: Record<string, Fn>;
}

/**
 * Stream-ordered calls a capture records instead of running, by the position of their stream
 * argument; the node runs the call as it was made. (Launches, 3D copies, host functions and
 * events are recorded by their own rules below.)
 */
const CAPTURED: Record<string, { stream: number; type: number }> = {
  cudaMemcpyAsync: { stream: 4, type: NODE.memcpy },
  cudaMemcpy2DAsync: { stream: 7, type: NODE.memcpy },
  cudaMemcpyToSymbolAsync: { stream: 5, type: NODE.memcpy },
  cudaMemcpyFromSymbolAsync: { stream: 5, type: NODE.memcpy },
  cudaMemcpyToArrayAsync: { stream: 6, type: NODE.memcpy },
  cudaMemcpyFromArrayAsync: { stream: 6, type: NODE.memcpy },
  cudaMemcpy2DToArrayAsync: { stream: 8, type: NODE.memcpy },
  cudaMemcpy2DFromArrayAsync: { stream: 8, type: NODE.memcpy },
  cudaMemsetAsync: { stream: 3, type: NODE.memset },
  cudaMemset2DAsync: { stream: 5, type: NODE.memset },
  cudaFreeAsync: { stream: 1, type: NODE.memFree },
};

export function graphCalls(ctx: HostContext, support: GraphSupport): Record<string, Fn> {
  const { runtime, linear, memory, flat } = ctx;
  const { calls } = support;
  const ok = (): number => runtime.status('cudaSuccess');
  const invalid = (): number => runtime.status('cudaErrorInvalidValue');
  const u32 = (at: number): number => linear.u32(at);

  // Handles are opaque to the program: distinct numbers, never reused.
  let nextHandle = 0x4000_0000;
  const graphs = new Map<number, Graph>();
  const nodes = new Map<number, GraphNode>();
  const execs = new Map<number, { steps: Work[]; conditions: Graph['conditions'] }>();
  const capturing = new Map<number, Capture>();
  /** Events recorded in a capturing stream: the capture and the nodes a wait on them depends on. */
  const capturedEvents = new Map<number, { capture: Capture; deps: GraphNode[] }>();
  let captures = 0;

  const newGraph = (): Graph => {
    const g: Graph = { handle: nextHandle++, nodes: [], conditions: [] };
    graphs.set(g.handle, g);
    return g;
  };
  const addNode = (graph: Graph, type: number, deps: GraphNode[], work: Work, child?: Graph): GraphNode => {
    const n: GraphNode = { handle: nextHandle++, type, deps: [...new Set(deps)], work, ...(child ? { child } : {}) };
    graph.nodes.push(n);
    nodes.set(n.handle, n);
    return n;
  };
  /** The dependencies an API call names: `count` node handles at `at`; undefined when one is not a node of the graph. */
  const depsAt = (graph: Graph, at: number, count: number): GraphNode[] | undefined => {
    if (count === 0) return [];
    if (!linear.contains(at, count * 4)) return undefined;
    const deps: GraphNode[] = [];
    for (let i = 0; i < count; i++) {
      const n = nodes.get(u32(at + i * 4));
      if (!n || !graph.nodes.includes(n)) return undefined;
      deps.push(n);
    }
    return deps;
  };
  /** Adds a node made by a cudaGraphAdd*Node call and writes its handle; `work` may be an error code. */
  const added = (out: number, graphHandle: number, depsPtr: number, count: number, type: number, work: Work | number, child?: Graph): number => {
    const graph = graphs.get(graphHandle);
    if (!graph || !linear.contains(out, 4)) return invalid();
    const deps = depsAt(graph, depsPtr, count);
    if (!deps) return invalid();
    if (typeof work === 'number') return work;
    linear.setU32(out, addNode(graph, type, deps, work, child).handle);
    return ok();
  };

  /** The nodes in an order their dependencies allow: a node after all it depends on, else creation order. */
  const ordered = (graph: Graph): GraphNode[] | undefined => {
    const done = new Set<GraphNode>();
    const order: GraphNode[] = [];
    while (order.length < graph.nodes.length) {
      const next = graph.nodes.find((n) => !done.has(n) && n.deps.every((d) => done.has(d) || !graph.nodes.includes(d)));
      if (!next) return undefined; // a cycle
      done.add(next);
      order.push(next);
    }
    return order;
  };
  /** A graph's work, child graphs' nodes in their place. */
  const flatten = (graph: Graph): Work[] | undefined => {
    const order = ordered(graph);
    if (!order) return undefined;
    const out: Work[] = [];
    for (const n of order) {
      if (n.child) {
        const inner = flatten(n.child);
        if (!inner) return undefined;
        out.push(...inner);
      } else if (n.conditional) {
        const bodies = n.conditional.bodies.map(flatten);
        if (bodies.some((b) => !b)) return undefined;
        out.push(conditionalWork(n.conditional.handle, n.conditional.kind, bodies as Work[][]));
      } else out.push(n.work);
    }
    return out;
  };
  const runSteps = (steps: Work[]): number => {
    for (const step of steps) {
      const e = step();
      if (e) return e;
    }
    return 0;
  };
  /** What a conditional node does when its graph runs: its bodies, as its handle's value says. */
  const conditionalWork = (handle: number, kind: number, bodies: Work[][]): Work => () => {
    const value = (): number => runtime.graphConditions.get(handle) ?? 0;
    if (kind === COND_WHILE) {
      for (let k = 0; value() !== 0; k++) {
        if (k >= WHILE_LIMIT) {
          const { range, site } = callSite(ctx);
          throw new HostStop({ kind: 'not-supported', message: `a conditional while node of a CUDA graph ran its body ${WHILE_LIMIT} times and its condition is still set${placeText(site)}`, ...(range ? { range } : {}) }, 2);
        }
        const e = runSteps(bodies[0]);
        if (e) return e;
      }
      return ok();
    }
    const v = value();
    // If: the body when set, the else body (a second one) when not; switch: the body of that number, if any.
    const body = kind === COND_IF ? (v !== 0 ? bodies[0] : bodies[1]) : kind === COND_SWITCH ? bodies[v] : undefined;
    return body ? runSteps(body) : ok();
  };
  /** A copy of a graph, nodes and edges, and which copy each original node has. */
  const cloneGraph = (g: Graph): { copy: Graph; map: Map<GraphNode, GraphNode> } => {
    const copy = newGraph();
    const map = new Map<GraphNode, GraphNode>();
    copy.conditions = g.conditions;
    for (const n of g.nodes) {
      const child = n.child && cloneGraph(n.child).copy;
      const made = addNode(copy, n.type, n.deps.map((d) => map.get(d)!).filter(Boolean), n.work, child);
      if (n.conditional) made.conditional = { ...n.conditional, bodies: n.conditional.bodies.map((b) => cloneGraph(b).copy) };
      map.set(n, made);
    }
    return { copy, map };
  };
  const clones = new Map<Graph, Map<GraphNode, GraphNode>>();

  /** Writes up to `*countAt` handles of `list` to `out` (none when `out` is null) and the count to `countAt`. */
  const writeNodes = (list: GraphNode[], out: number, countAt: number): number => {
    if (!linear.contains(countAt, 4)) return invalid();
    if (out) {
      const n = Math.min(u32(countAt), list.length);
      if (!linear.contains(out, n * 4)) return invalid();
      for (let i = 0; i < n; i++) linear.setU32(out + i * 4, list[i].handle);
    }
    linear.setU32(countAt, list.length);
    return ok();
  };

  /** cudaMemsetParams: `height` rows of `width` elements of 1, 2 or 4 bytes, each `value`, `pitch` bytes apart. */
  const memsetWork = (at: number): Work | number => {
    if (!linear.contains(at, L.cudaMemsetParams.size)) return invalid();
    const M = L.cudaMemsetParams;
    const dst = flat.pointerOf(u32(at + M.dst));
    const pitch = u32(at + M.pitch);
    const value = u32(at + M.value);
    const size = u32(at + M.elementSize);
    const width = u32(at + M.width);
    const height = Math.max(u32(at + M.height), 1);
    if ((size !== 1 && size !== 2 && size !== 4) || (height > 1 && pitch < width * size)) return invalid();
    return () => {
      for (let row = 0; row < height; row++) {
        const p = dst + row * pitch;
        // Checked as cudaMemset checks its destination, then filled element by element.
        const e = runtime.memset(p, 0, width * size);
        if (e) return e;
        const a = memory.allocation(pointerAllocation(p))!;
        for (let i = 0; i < width; i++) {
          const off = pointerOffset(p) + i * size;
          if (size === 1) a.view.setUint8(off, value);
          else if (size === 2) a.view.setUint16(off, value, true);
          else a.view.setUint32(off, value, true);
        }
      }
      return ok();
    };
  };

  /** Records `work` as the next node of a capturing stream. */
  const capture = (c: Capture, stream: number, type: number, work: Work | number): number => {
    if (typeof work === 'number') return work;
    const node = addNode(c.graph, type, c.tails.get(stream) ?? [], work);
    c.tails.set(stream, [node]);
    return ok();
  };

  const graphApi: Record<string, Fn> = {
    cudaGraphCreate: (out) => {
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, newGraph().handle);
      return ok();
    },
    cudaGraphAddKernelNode: (out, graph, deps, count, params) => {
      if (!linear.contains(params, L.cudaKernelNodeParams.size)) return invalid();
      const K = L.cudaKernelNodeParams;
      const work = support.prepareLaunch(u32(params + K.func), support.dim3(params + K.gridDim), support.dim3(params + K.blockDim), u32(params + K.kernelParams), u32(params + K.sharedMemBytes));
      return added(out, graph, deps, count, NODE.kernel, work);
    },
    cudaGraphAddMemcpyNode: (out, graph, deps, count, parms) => added(out, graph, deps, count, NODE.memcpy, support.prepareCopy3D(parms)),
    cudaGraphAddMemcpyNode1D: (out, graph, deps, count, dst, src, bytes, kind) => added(out, graph, deps, count, NODE.memcpy, () => calls.cudaMemcpy(dst, src, bytes, kind)),
    cudaGraphAddMemcpyNodeToSymbol: (out, graph, deps, count, symbol, src, bytes, offset, kind) => added(out, graph, deps, count, NODE.memcpy, () => calls.cudaMemcpyToSymbol(symbol, src, bytes, offset, kind)),
    cudaGraphAddMemcpyNodeFromSymbol: (out, graph, deps, count, dst, symbol, bytes, offset, kind) => added(out, graph, deps, count, NODE.memcpy, () => calls.cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind)),
    cudaGraphAddMemsetNode: (out, graph, deps, count, params) => added(out, graph, deps, count, NODE.memset, memsetWork(params)),
    cudaGraphAddHostNode: (out, graph, deps, count, params) => {
      if (!linear.contains(params, L.cudaHostNodeParams.size)) return invalid();
      const fn = u32(params + L.cudaHostNodeParams.fn);
      const data = u32(params + L.cudaHostNodeParams.userData);
      return added(out, graph, deps, count, NODE.host, () => (callHostFunction(ctx, fn, data), ok()));
    },
    cudaGraphAddChildGraphNode: (out, graph, deps, count, child) => {
      const g = graphs.get(child);
      if (!g) return invalid();
      return added(out, graph, deps, count, NODE.graph, ok, cloneGraph(g).copy);
    },
    cudaGraphAddEmptyNode: (out, graph, deps, count) => added(out, graph, deps, count, NODE.empty, ok),
    cudaGraphAddEventRecordNode: (out, graph, deps, count, event) => added(out, graph, deps, count, NODE.eventRecord, () => calls.cudaEventRecord(event, 0)),
    cudaGraphAddEventWaitNode: (out, graph, deps, count) => added(out, graph, deps, count, NODE.waitEvent, ok),
    cudaGraphAddMemFreeNode: (out, graph, deps, count, dptr) => added(out, graph, deps, count, NODE.memFree, () => calls.cudaFree(dptr)),
    cudaGraphAddDependencies: (graph, from, to, _edgeData, count) => {
      const g = graphs.get(graph);
      const a = g && depsAt(g, from, count);
      const b = g && depsAt(g, to, count);
      if (!a || !b) return invalid();
      b.forEach((n, i) => {
        if (!n.deps.includes(a[i])) n.deps.push(a[i]);
      });
      return ok();
    },
    cudaGraphGetNodes: (graph, out, countAt) => {
      const g = graphs.get(graph);
      return g ? writeNodes(g.nodes, out, countAt) : invalid();
    },
    cudaGraphGetRootNodes: (graph, out, countAt) => {
      const g = graphs.get(graph);
      return g ? writeNodes(g.nodes.filter((n) => n.deps.length === 0), out, countAt) : invalid();
    },
    cudaGraphNodeGetDependencies: (node, out, _edgeData, countAt) => {
      const n = nodes.get(node);
      return n ? writeNodes(n.deps, out, countAt) : invalid();
    },
    cudaGraphNodeGetDependentNodes: (node, out, _edgeData, countAt) => {
      const n = nodes.get(node);
      if (!n) return invalid();
      const graph = [...graphs.values()].find((g) => g.nodes.includes(n))!;
      return writeNodes(graph.nodes.filter((m) => m.deps.includes(n)), out, countAt);
    },
    cudaGraphNodeGetType: (node, out) => {
      const n = nodes.get(node);
      if (!n || !linear.contains(out, 4)) return invalid();
      linear.setU32(out, n.type);
      return ok();
    },
    cudaGraphChildGraphNodeGetGraph: (node, out) => {
      const n = nodes.get(node);
      if (!n?.child || !linear.contains(out, 4)) return invalid();
      linear.setU32(out, n.child.handle);
      return ok();
    },
    cudaGraphClone: (out, graph) => {
      const g = graphs.get(graph);
      if (!g || !linear.contains(out, 4)) return invalid();
      const { copy, map } = cloneGraph(g);
      clones.set(copy, map);
      linear.setU32(out, copy.handle);
      return ok();
    },
    cudaGraphNodeFindInClone: (out, original, clone) => {
      const copy = clones.get(graphs.get(clone)!)?.get(nodes.get(original)!);
      if (!copy || !linear.contains(out, 4)) return invalid();
      linear.setU32(out, copy.handle);
      return ok();
    },
    cudaGraphDestroyNode: (node) => {
      const n = nodes.get(node);
      if (!n) return invalid();
      nodes.delete(node);
      for (const g of graphs.values()) {
        g.nodes = g.nodes.filter((m) => m !== n);
        for (const m of g.nodes) m.deps = m.deps.filter((d) => d !== n);
      }
      return ok();
    },
    cudaGraphDestroy: (graph) => (graphs.delete(graph) ? ok() : invalid()),
    cudaGraphInstantiate: (out, graph) => {
      const g = graphs.get(graph);
      if (!g || !linear.contains(out, 4)) return invalid();
      const steps = flatten(g);
      if (!steps) return invalid();
      const handle = nextHandle++;
      execs.set(handle, { steps, conditions: g.conditions });
      linear.setU32(out, handle);
      return ok();
    },
    cudaGraphInstantiateWithFlags: (out, graph) => graphApi.cudaGraphInstantiate(out, graph),
    cudaGraphInstantiateWithParams: (out, graph) => graphApi.cudaGraphInstantiate(out, graph),
    cudaGraphUpload: (exec) => (execs.has(exec) ? ok() : invalid()),
    cudaGraphLaunch: (exec, stream) => {
      const x = execs.get(exec);
      if (!x) return invalid();
      const c = capturing.get(stream);
      if (c) return capture(c, stream, NODE.graph, () => graphApi.cudaGraphLaunch(exec, 0));
      for (const cond of x.conditions) runtime.graphConditions.set(cond.handle, cond.value);
      return runSteps(x.steps) || ok();
    },
    cudaGraphConditionalHandleCreate: (out, graph, value, flags) => {
      const g = graphs.get(graph);
      if (!g || !linear.contains(out, 8)) return invalid();
      const handle = nextHandle++;
      runtime.graphConditions.set(handle, value >>> 0);
      if (flags & ASSIGN_DEFAULT) g.conditions.push({ handle, value: value >>> 0 });
      linear.setU32(out, handle);
      linear.setU32(out + 4, 0);
      return ok();
    },
    cudaGraphAddNode: (out, graph, deps, _edgeData, count, params) => {
      const P = L.cudaGraphNodeParams;
      if (!linear.contains(params, P.size)) return invalid();
      const type = u32(params + P.type);
      switch (type) {
        case NODE.kernel: {
          const K = L.cudaKernelNodeParams;
          const at = params + P.kernel;
          return added(out, graph, deps, count, NODE.kernel, support.prepareLaunch(u32(at + K.func), support.dim3(at + K.gridDim), support.dim3(at + K.blockDim), u32(at + K.kernelParams), u32(at + K.sharedMemBytes)));
        }
        case NODE.memset:
          return added(out, graph, deps, count, NODE.memset, memsetWork(params + P.memset));
        case NODE.host:
          return graphApi.cudaGraphAddHostNode(out, graph, deps, count, params + P.host);
        case NODE.graph:
          return graphApi.cudaGraphAddChildGraphNode(out, graph, deps, count, u32(params + P.graph));
        case NODE.empty:
          return added(out, graph, deps, count, NODE.empty, ok);
        case NODE.eventRecord:
          return graphApi.cudaGraphAddEventRecordNode(out, graph, deps, count, u32(params + P.eventRecord));
        case NODE.waitEvent:
          return added(out, graph, deps, count, NODE.waitEvent, ok);
        case NODE.memFree:
          return graphApi.cudaGraphAddMemFreeNode(out, graph, deps, count, u32(params + P.free));
        case NODE.conditional: {
          const C = L.cudaConditionalNodeParams;
          const at = params + P.conditional;
          const handle = u32(at + C.handle);
          const kind = u32(at + C.type);
          const size = u32(at + C.size_);
          if (!runtime.graphConditions.has(handle) || kind > COND_SWITCH || size < 1 || (kind !== COND_SWITCH && size > (kind === COND_IF ? 2 : 1))) return invalid();
          // The body graphs are the runtime's: their handles go in an array in the program's memory.
          const array = linear.malloc(size * 4);
          if (!array) return runtime.status('cudaErrorMemoryAllocation');
          const bodies = Array.from({ length: size }, () => newGraph());
          bodies.forEach((b, k) => linear.setU32(array + k * 4, b.handle));
          linear.setU32(at + C.phGraph_out, array);
          const r = added(out, graph, deps, count, NODE.conditional, ok);
          if (r === 0) nodes.get(u32(out))!.conditional = { handle, kind, bodies };
          return r;
        }
        default: {
          const { range, site } = callSite(ctx);
          throw new HostStop({ kind: 'not-supported', message: `not supported: cudaGraphAddNode of a node of type ${type} (CUDA graphs)${placeText(site)}`, ...(range ? { range } : {}) }, 2);
        }
      }
    },
    cudaGraphExecDestroy: (exec) => (execs.delete(exec) ? ok() : invalid()),

    cudaStreamBeginCapture: (stream) => {
      if (stream === 0 || capturing.has(stream)) return runtime.status('cudaErrorStreamCaptureUnsupported');
      const c: Capture = { graph: newGraph(), origin: stream, id: ++captures, tails: new Map([[stream, []]]) };
      capturing.set(stream, c);
      return ok();
    },
    cudaStreamBeginCaptureToGraph: (stream, graph, deps, _edgeData, count) => {
      const g = graphs.get(graph);
      if (!g) return invalid();
      if (stream === 0 || capturing.has(stream)) return runtime.status('cudaErrorStreamCaptureUnsupported');
      const tails = depsAt(g, deps, count);
      if (!tails) return invalid();
      capturing.set(stream, { graph: g, origin: stream, id: ++captures, tails: new Map([[stream, tails]]) });
      return ok();
    },
    cudaStreamUpdateCaptureDependencies: (stream, deps, _edgeData, count, flags) => {
      const c = capturing.get(stream);
      if (!c) return runtime.status('cudaErrorIllegalState');
      const given = depsAt(c.graph, deps, count);
      if (!given) return invalid();
      c.tails.set(stream, flags === 1 ? given : [...(c.tails.get(stream) ?? []), ...given]);
      return ok();
    },
    cudaStreamEndCapture: (stream, out) => {
      const c = capturing.get(stream);
      if (!c) return runtime.status('cudaErrorIllegalState');
      if (c.origin !== stream) return runtime.status('cudaErrorStreamCaptureUnmatched');
      for (const [s, other] of [...capturing]) if (other === c) capturing.delete(s);
      for (const [e, rec] of [...capturedEvents]) if (rec.capture === c) capturedEvents.delete(e);
      // A capture into a graph of the program's own (cudaStreamBeginCaptureToGraph) may ask for nothing back.
      if (out === 0) return ok();
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, c.graph.handle);
      return ok();
    },
    cudaStreamIsCapturing: (stream, out) => {
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, capturing.has(stream) ? CAPTURE_ACTIVE : CAPTURE_NONE);
      return ok();
    },
    cudaStreamGetCaptureInfo: (stream, statusOut, idOut, graphOut, depsOut, _edgesOut, countOut) => {
      const c = capturing.get(stream);
      if (statusOut && linear.contains(statusOut, 4)) linear.setU32(statusOut, c ? CAPTURE_ACTIVE : CAPTURE_NONE);
      if (idOut && linear.contains(idOut, 8)) {
        linear.setU32(idOut, c?.id ?? 0);
        linear.setU32(idOut + 4, 0);
      }
      if (graphOut && linear.contains(graphOut, 4)) linear.setU32(graphOut, c?.graph.handle ?? 0);
      const tails = c?.tails.get(stream) ?? [];
      if (depsOut && linear.contains(depsOut, 4)) {
        // The array is the runtime's, in the program's memory, valid until the next call.
        let buffer = c?.depsBuffer;
        if (c && tails.length && (!buffer || buffer.capacity < tails.length)) {
          const at = linear.malloc(tails.length * 4);
          if (!at) return runtime.status('cudaErrorMemoryAllocation');
          buffer = c.depsBuffer = { at, capacity: tails.length };
        }
        if (buffer) tails.forEach((n, k) => linear.setU32(buffer!.at + k * 4, n.handle));
        linear.setU32(depsOut, tails.length && buffer ? buffer.at : 0);
      }
      if (countOut && linear.contains(countOut, 4)) linear.setU32(countOut, tails.length);
      return ok();
    },
  };

  // The stream-ordered calls, recorded while their stream is captured.
  const stage: Record<string, Fn> = {};
  for (const [name, { stream, type }] of Object.entries(CAPTURED)) {
    const run = calls[name];
    if (!run) continue;
    stage[name] = (...args) => {
      const c = capturing.get(args[stream]);
      return c ? capture(c, args[stream], type, () => run(...args)) : run(...args);
    };
  }
  const launchOrCapture = (run: Fn): Fn => (stub, grid, block, args, shared, stream) => {
    const c = capturing.get(stream);
    if (!c) return run(stub, grid, block, args, shared, stream);
    return capture(c, stream, NODE.kernel, support.prepareLaunch(stub, support.dim3(grid), support.dim3(block), args, shared));
  };
  stage.cudaLaunchKernel = launchOrCapture(calls.cudaLaunchKernel);
  stage.cudaLaunchCooperativeKernel = launchOrCapture(calls.cudaLaunchCooperativeKernel);
  stage.cudaMemcpy3DAsync = (parms, stream) => {
    const c = capturing.get(stream);
    return c ? capture(c, stream, NODE.memcpy, support.prepareCopy3D(parms)) : calls.cudaMemcpy3DAsync(parms, stream);
  };
  stage.cudaLaunchHostFunc = (stream, fn, data) => {
    const c = capturing.get(stream);
    return c ? capture(c, stream, NODE.host, () => (callHostFunction(ctx, fn, data), ok())) : calls.cudaLaunchHostFunc(stream, fn, data);
  };
  // Events carry a capture's dependencies from stream to stream (fork and join).
  const record = (run: Fn): Fn => (event, stream, flags) => {
    const c = capturing.get(stream);
    if (!c) return run(event, stream, flags);
    capturedEvents.set(event, { capture: c, deps: c.tails.get(stream) ?? [] });
    return ok();
  };
  stage.cudaEventRecord = record(calls.cudaEventRecord);
  stage.cudaEventRecordWithFlags = record(calls.cudaEventRecordWithFlags);
  stage.cudaStreamWaitEvent = (stream, event, flags) => {
    const rec = capturedEvents.get(event);
    if (!rec) return calls.cudaStreamWaitEvent(stream, event, flags);
    const joined = capturing.get(stream);
    if (joined && joined !== rec.capture) return runtime.status('cudaErrorStreamCaptureIsolation');
    capturing.set(stream, rec.capture);
    rec.capture.tails.set(stream, [...(rec.capture.tails.get(stream) ?? []), ...rec.deps]);
    return ok();
  };
  return { ...graphApi, ...stage };
}
