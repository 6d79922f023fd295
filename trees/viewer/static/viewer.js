/*
 * cogtree viewer: draws tick snapshots from the local server with py_trees_js, scrubs
 * through the ticks the server holds, and shows why the selected node did what it did.
 *
 * Following the newest tick (live) or playing forwards, snapshots go through the
 * py_trees_js timeline (its markers keep the recent stream); stepping or scrubbing draws
 * the chosen tick on the canvas directly. Every text from the tree is set as text.
 */
"use strict";

// py_trees_js refers to these four by their global names.
var canvas_graph = py_trees.canvas.create_graph();
var canvas_paper = py_trees.canvas.create_paper({ graph: canvas_graph });
const TIMELINE_EVENTS = 100;
var timeline_graph = py_trees.timeline.create_graph({ event_cache_limit: TIMELINE_EVENTS });
var timeline_paper = py_trees.timeline.create_paper({
  timeline_graph: timeline_graph,
  canvas_graph: canvas_graph,
  canvas_paper: canvas_paper,
});

const POLL_WAIT_S = 10;
const INDEX_PAGE = 1000;
const MIN_POLL_MS = 100;

const viewer = {
  live: false, // ticks come from a running tree (else from a tick log)
  finished: false, // the run is over: no more ticks will come
  ticks: [], // tick numbers the server holds, ascending
  summaries: new Map(), // tick number -> summary from the tick index
  cursor: null, // the tick shown
  following: false, // show each new tick as it arrives
  playing: false,
  selected: null, // id of the selected node
  snapshot: null, // the snapshot shown
  timelineLast: -Infinity, // newest tick given to the py_trees_js timeline
  request: 0, // a newer snapshot request makes older answers obsolete
};
window.cogtreeViewer = viewer; // for tests and for the curious, from the console

const byId = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function getJSON(path) {
  const response = await fetch(path, { cache: "no-store" });
  const body = await response.json();
  if (!response.ok) {
    throw new Error(body.error || response.statusText);
  }
  return body;
}

function setMessage(text) {
  byId("message").textContent = text;
}

// -- the server's ticks ---------------------------------------------------------------

async function start() {
  let info;
  try {
    info = await getJSON("/api/info");
  } catch (error) {
    setMessage(`cannot reach the viewer server: ${error.message}`);
    return;
  }
  viewer.live = info.live;
  viewer.finished = info.finished;
  viewer.following = info.live;
  byId("title").textContent = info.tree || "cogtree";
  byId("source").textContent = info.live ? "live" : info.source;
  byId("live").textContent = info.live ? "live" : "end";
  document.title = `${info.tree || "tree"} – cogtree viewer`;
  updateBar();
  poll();
}

async function poll() {
  let since = 0;
  let preloaded = viewer.live;
  for (;;) {
    const wait = viewer.finished ? 0 : POLL_WAIT_S;
    let index;
    try {
      index = await getJSON(`/api/ticks?since=${since}&limit=${INDEX_PAGE}&wait=${wait}`);
    } catch (error) {
      setMessage("the viewer server stopped answering (the run may be over)");
      return;
    }
    absorb(index);
    if (!preloaded) {
      preloaded = true;
      await preloadTimeline(index.ticks);
    }
    if (index.ticks.length > 0) {
      since = index.ticks[index.ticks.length - 1].tick;
      if (!index.finished) {
        await sleep(MIN_POLL_MS); // a tree ticking at 100 Hz is redrawn at most 10 times a second
      }
    } else if (index.finished) {
      return;
    }
  }
}

function absorb(index) {
  if (index.tree && byId("title").textContent !== index.tree) {
    byId("title").textContent = index.tree; // a live run's header came after the page
    document.title = `${index.tree} – cogtree viewer`;
  }
  for (const summary of index.ticks) {
    viewer.ticks.push(summary.tick);
    viewer.summaries.set(summary.tick, summary);
  }
  while (index.first !== null && viewer.ticks.length > 0 && viewer.ticks[0] < index.first) {
    viewer.summaries.delete(viewer.ticks.shift()); // the live feed let it go
  }
  viewer.finished = index.finished;
  const newest = viewer.ticks[viewer.ticks.length - 1];
  if (newest !== undefined && (viewer.cursor === null || viewer.following)) {
    show(viewer.following ? newest : viewer.ticks[0]);
  }
  updateBar();
}

/* A tick log: put the ticks where something changed on the py_trees_js timeline. */
async function preloadTimeline(summaries) {
  const changed = summaries.filter((summary) => summary.changed).slice(0, TIMELINE_EVENTS);
  for (const summary of changed) {
    let snapshot;
    try {
      snapshot = await getJSON(`/api/snapshot?tick=${summary.tick}`);
    } catch (error) {
      return;
    }
    timeline_graph.set("streaming", false);
    py_trees.timeline.add_tree_to_cache({
      timeline_graph: timeline_graph,
      canvas_graph: canvas_graph,
      canvas_paper: canvas_paper,
      tree: snapshot,
    });
    viewer.timelineLast = summary.tick;
  }
}

async function show(tick) {
  const request = ++viewer.request;
  let snapshot;
  try {
    snapshot = await getJSON(`/api/snapshot?tick=${tick}`);
  } catch (error) {
    setMessage(error.message);
    return;
  }
  if (request !== viewer.request) {
    return; // the user moved on while this one loaded
  }
  setMessage("");
  if ((viewer.following || viewer.playing) && tick > viewer.timelineLast) {
    viewer.timelineLast = tick;
    timeline_graph.set("streaming", true);
    py_trees.timeline.add_tree_to_cache({
      timeline_graph: timeline_graph,
      canvas_graph: canvas_graph,
      canvas_paper: canvas_paper,
      tree: snapshot,
    });
  } else {
    timeline_graph.set("streaming", false);
    drawOnCanvas(snapshot);
  }
  present(snapshot);
}

/* What py_trees_js does for a streamed tree, for a tree picked by hand. */
function drawOnCanvas(tree) {
  canvas_paper.freeze();
  const added = py_trees.canvas.update_graph({ graph: canvas_graph, tree: tree }) || [];
  if (added.length > 0) {
    py_trees.canvas.layout_graph({ graph: canvas_graph });
    for (const cell of added) {
      const view = canvas_paper.findViewByModel(cell);
      if (view && view.updateBox) {
        view.listenTo(canvas_paper, "translate", view.updateBox);
        view.listenTo(canvas_paper, "scale", view.updateBox);
      }
    }
    canvas_paper.updateViews();
  }
  if (canvas_graph.get("scale_content_to_fit")) {
    py_trees.canvas.scale_content_to_fit(canvas_paper);
  }
  canvas_paper.unfreeze();
}

function present(snapshot) {
  viewer.snapshot = snapshot;
  viewer.cursor = snapshot.cogtree.tick;
  document.body.dataset.tick = String(snapshot.cogtree.tick);
  updateBar();
  renderDetails();
}

// -- moving through the ticks -----------------------------------------------------------

function positionOf(tick) {
  let low = 0;
  let high = viewer.ticks.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (viewer.ticks[middle] < tick) {
      low = middle + 1;
    } else if (viewer.ticks[middle] > tick) {
      high = middle - 1;
    } else {
      return middle;
    }
  }
  return Math.min(low, viewer.ticks.length - 1);
}

function goTo(position) {
  viewer.following = false;
  viewer.playing = false;
  const tick = viewer.ticks[Math.max(0, Math.min(position, viewer.ticks.length - 1))];
  if (tick !== undefined) {
    show(tick);
  }
  updateBar();
}

function step(delta) {
  if (viewer.cursor !== null) {
    goTo(positionOf(viewer.cursor) + delta);
  }
}

function followNewest() {
  viewer.playing = false;
  if (viewer.live) {
    viewer.following = true;
  }
  const newest = viewer.ticks[viewer.ticks.length - 1];
  if (newest !== undefined) {
    show(newest);
  }
  updateBar();
}

async function togglePlay() {
  if (viewer.playing) {
    viewer.playing = false;
    updateBar();
    return;
  }
  if (viewer.ticks.length === 0) {
    return;
  }
  viewer.following = false;
  viewer.playing = true;
  if (viewer.cursor === null || positionOf(viewer.cursor) >= viewer.ticks.length - 1) {
    await show(viewer.ticks[0]);
  }
  updateBar();
  while (viewer.playing) {
    await sleep(1000 / Number(byId("speed").value));
    const position = positionOf(viewer.cursor);
    if (!viewer.playing) {
      break;
    }
    if (position >= viewer.ticks.length - 1) {
      viewer.playing = false;
      viewer.following = viewer.live && !viewer.finished;
      break;
    }
    await show(viewer.ticks[position + 1]);
  }
  updateBar();
}

function updateBar() {
  const slider = byId("slider");
  const count = viewer.ticks.length;
  slider.max = String(Math.max(count - 1, 0));
  slider.disabled = count === 0;
  if (viewer.cursor !== null) {
    slider.value = String(positionOf(viewer.cursor));
  }
  const first = viewer.ticks[0];
  const last = viewer.ticks[count - 1];
  let label = "waiting for the first tick…";
  if (viewer.cursor !== null) {
    const state = viewer.finished ? "run over" : viewer.live ? "running" : "";
    label = `tick ${viewer.cursor} (${first}–${last})${state ? " · " + state : ""}`;
  } else if (viewer.finished && count === 0) {
    label = "no ticks";
  }
  byId("tick-label").textContent = label;
  const status = viewer.snapshot ? viewer.snapshot.cogtree.root_status : "";
  const rootStatus = byId("root-status");
  rootStatus.textContent = status;
  rootStatus.className = status ? `status ${status}` : "";
  byId("play").innerHTML = viewer.playing ? "&#10074;&#10074;" : "&#9654;";
  byId("play").classList.toggle("active", viewer.playing);
  byId("live").classList.toggle("active", viewer.following);
}

// -- details of the tick and of the selected node ----------------------------------------

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) {
    made.textContent = text;
  }
  if (className) {
    made.className = className;
  }
  return made;
}

function shown(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function isEmpty(value) {
  return (
    value === null ||
    value === "" ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0)
  );
}

function selectNode(id) {
  viewer.selected = id;
  renderDetails();
}

function renderDetails() {
  const snapshot = viewer.snapshot;
  renderTick(snapshot);
  const node = snapshot && viewer.selected ? snapshot.cogtree.nodes[viewer.selected] : null;
  byId("node-details").hidden = !node;
  if (!node) {
    return;
  }
  byId("details-name").textContent = node.name;
  byId("details-type").textContent = `${node.behaviour} (${node.kind})${node.visited ? "" : ", not visited this tick"}`;
  const status = byId("details-status");
  status.textContent = node.status;
  status.className = `status ${node.status}`;
  byId("details-feedback").textContent = node.feedback || "–";
  renderDecision(node);
  renderCalls(node.calls);
  renderKeys(byId("details-reads"), node.reads, true);
  renderKeys(byId("details-writes"), node.writes, false);
}

function renderTick(snapshot) {
  const box = byId("tick-details");
  box.replaceChildren();
  if (!snapshot) {
    return;
  }
  const tick = snapshot.cogtree;
  box.append(
    element("p", `tick ${tick.tick}: ${tick.root_status}, ${tick.duration_ms.toFixed(2)} ms`),
  );
  const decided = Object.values(tick.nodes).filter((node) => node.rationale && node.rationale.fresh);
  if (decided.length > 0) {
    const line = element("p", "decided this tick: ");
    decided.forEach((node, position) => {
      const link = element("a", node.name, "node-link");
      link.addEventListener("click", () => selectNode(node.id));
      line.append(link, position < decided.length - 1 ? ", " : "");
    });
    box.append(line);
  }
  if (!viewer.selected) {
    box.append(element("p", "Click a node to see its status, decision, reasons and model calls.", "muted"));
  }
}

function renderDecision(node) {
  const section = byId("details-decision");
  const rationale = node.rationale;
  section.hidden = !rationale;
  if (!rationale) {
    return;
  }
  let when = rationale.fresh ? "this tick" : `at tick ${rationale.tick}`;
  if (!rationale.fresh && node.status === "INVALID") {
    when += ", in an earlier run of the node";
  }
  const veto = rationale.vetoed ? ", vetoed by the guard" : "";
  byId("details-decided").textContent = `decided by ${rationale.source}${veto}, ${when}`;
  const fields = byId("details-decision-fields");
  fields.replaceChildren();
  for (const [key, value] of Object.entries(rationale.decision)) {
    if (key === "rationale" || isEmpty(value)) {
      continue;
    }
    const row = element("tr");
    row.append(element("th", key), element("td", shown(value)));
    fields.append(row);
  }
  byId("details-rationale").textContent = rationale.text || "–";
  const notes = byId("details-notes");
  notes.replaceChildren(...rationale.notes.map((note) => element("li", note)));
}

function renderCalls(calls) {
  byId("details-calls-section").hidden = calls.length === 0;
  const table = byId("details-calls");
  table.replaceChildren();
  if (calls.length === 0) {
    return;
  }
  const head = element("tr");
  for (const title of ["backend", "outcome", "tokens", "latency"]) {
    head.append(element("th", title));
  }
  table.append(head);
  for (const call of calls) {
    const row = element("tr");
    const estimated = call.tokens_estimated ? " (est.)" : "";
    row.append(
      element("td", `${call.backend} ${call.model}${call.attempt > 1 ? ` #${call.attempt}` : ""}`),
      element("td", call.outcome + (call.detail ? `: ${call.detail}` : "")),
      element("td", `${call.prompt_tokens}+${call.completion_tokens}${estimated}`),
      element("td", `${call.latency_s.toFixed(3)} s`),
    );
    table.append(row);
  }
}

function renderKeys(list, accesses, reading) {
  list.replaceChildren();
  if (accesses.length === 0) {
    list.append(element("li", "none", "muted"));
    return;
  }
  for (const access of accesses) {
    const item = element("li", `${access.key} = `);
    const value = reading && access.missing ? "(not set)" : access.value;
    item.append(element("span", value, "value"));
    list.append(item);
  }
}

// -- wiring ---------------------------------------------------------------------------------

canvas_paper.on("element:pointerclick", (view) => {
  const id = view.model.get("behaviour_id");
  if (id !== undefined) {
    selectNode(id);
  }
});

// A marker or button of the py_trees_js timeline was clicked: show what it shows.
timeline_paper.on("element:pointerclick", () => {
  const selected = timeline_graph.get("cache").get("selected");
  const tree = selected && selected.get("tree");
  if (!tree || !tree.cogtree) {
    return;
  }
  viewer.request++;
  viewer.playing = false;
  viewer.following = viewer.live && timeline_graph.get("streaming");
  present(tree);
});

byId("first").addEventListener("click", () => goTo(0));
byId("prev").addEventListener("click", () => step(-1));
byId("next").addEventListener("click", () => step(1));
byId("live").addEventListener("click", followNewest);
byId("play").addEventListener("click", togglePlay);
byId("slider").addEventListener("input", (event) => goTo(Number(event.target.value)));

document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) {
    return;
  }
  const actions = {
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    Home: () => goTo(0),
    End: followNewest,
    " ": togglePlay,
  };
  if (actions[event.key]) {
    event.preventDefault();
    actions[event.key]();
  }
});

window.addEventListener("resize", () => {
  py_trees.canvas.on_window_resize(canvas_paper);
  py_trees.timeline.on_window_resize(timeline_paper);
});

start();
