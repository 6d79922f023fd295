/*
 * cogtree viewer: draws tick snapshots from the local server with py_trees_js (what ran in
 * focus, see focus.js), scrubs through the ticks the server holds, tells the turn's story
 * (story.js) and shows why the selected node did what it did.
 *
 * A tick log opens at its last tick; a live feed follows the newest. Every text from the
 * tree is set as text.
 */
"use strict";

// py_trees_js refers to these two by their global names.
var canvas_graph = py_trees.canvas.create_graph();
var canvas_paper = py_trees.canvas.create_paper({ graph: canvas_graph });

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
  opening: true, // a tick log: show its last tick once it is known, until the user moves
  playing: false,
  selected: null, // id of the selected node
  snapshot: null, // the snapshot shown
  request: 0, // a newer snapshot request makes older answers obsolete
};
window.cogtreeViewer = viewer; // for tests and for the curious, from the console
window.cogtreeFocus = focus;

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
  if (newest !== undefined && (viewer.following || viewer.opening) && newest !== viewer.cursor) {
    show(newest);
  }
  if (index.ticks.length > 0 || viewer.finished) {
    renderMarks();
    storyNoticesTicks(index.ticks);
  }
  updateBar();
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
  drawTree(snapshot);
  present(snapshot);
}

function present(snapshot) {
  viewer.snapshot = snapshot;
  viewer.cursor = snapshot.cogtree.tick;
  if (viewer.selected && !snapshot.cogtree.nodes[viewer.selected]) {
    viewer.selected = null; // the node left the tree (a plan was replaced)
  }
  document.body.dataset.tick = String(snapshot.cogtree.tick);
  updateBar();
  renderDetails();
  markCursor();
  markStoryCursor();
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

async function goTo(position) {
  viewer.following = false;
  viewer.opening = false;
  viewer.playing = false;
  const tick = viewer.ticks[Math.max(0, Math.min(position, viewer.ticks.length - 1))];
  updateBar();
  if (tick !== undefined) {
    await show(tick);
  }
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
  viewer.opening = false;
  viewer.playing = true;
  if (viewer.cursor === null || positionOf(viewer.cursor) >= viewer.ticks.length - 1) {
    await show(viewer.ticks[0]);
  }
  updateBar();
  // Keep the pace: when a tick takes longer to draw than the speed allows, skip ticks.
  let frame = performance.now();
  while (viewer.playing) {
    const speed = Number(byId("speed").value);
    await sleep(Math.max(0, 1000 / speed - (performance.now() - frame)));
    const position = positionOf(viewer.cursor);
    if (!viewer.playing) {
      break;
    }
    if (position >= viewer.ticks.length - 1) {
      viewer.playing = false;
      viewer.following = viewer.live && !viewer.finished;
      break;
    }
    const due = Math.max(1, Math.floor(((performance.now() - frame) * speed) / 1000));
    frame = performance.now();
    await show(viewer.ticks[Math.min(position + due, viewer.ticks.length - 1)]);
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
  byId("whole").classList.toggle("active", focus.whole);
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
  document.body.dataset.selected = id;
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

// A click selects the node and opens it when it is folded; a double click folds it.
canvas_paper.on("element:pointerclick", (view) => {
  const id = view.model.get("behaviour_id");
  if (id === undefined) {
    return;
  }
  selectNode(id);
  if (focus.folded.has(id) && viewer.snapshot) {
    toggleFold(id, viewer.snapshot);
  }
});
canvas_paper.on("element:pointerdblclick", (view) => {
  const id = view.model.get("behaviour_id");
  if (id !== undefined && !focus.folded.has(id) && viewer.snapshot) {
    toggleFold(id, viewer.snapshot);
  }
});
wireFocus();

function toggleWhole() {
  focus.whole = !focus.whole;
  focus.autoFit = true;
  if (viewer.snapshot) {
    drawTree(viewer.snapshot);
  }
  updateBar();
}

byId("first").addEventListener("click", () => goTo(0));
byId("prev").addEventListener("click", () => step(-1));
byId("next").addEventListener("click", () => step(1));
byId("live").addEventListener("click", followNewest);
byId("play").addEventListener("click", togglePlay);
byId("slider").addEventListener("input", (event) => goTo(Number(event.target.value)));
byId("fit").addEventListener("click", fitAgain);
byId("whole").addEventListener("click", toggleWhole);
byId("zoom-in").addEventListener("click", () => zoomAtCentre(ZOOM_STEP));
byId("zoom-out").addEventListener("click", () => zoomAtCentre(1 / ZOOM_STEP));

/* Keys: the arrows jump between marks (with Shift they pan), comma and period step a tick. */
const KEYS = {
  ArrowLeft: () => jumpToMark(-1),
  ArrowRight: () => jumpToMark(1),
  "Shift+ArrowLeft": () => panBy(PAN_STEP, 0),
  "Shift+ArrowRight": () => panBy(-PAN_STEP, 0),
  "Shift+ArrowUp": () => panBy(0, PAN_STEP),
  "Shift+ArrowDown": () => panBy(0, -PAN_STEP),
  ",": () => step(-1),
  ".": () => step(1),
  Home: () => goTo(0),
  End: followNewest,
  " ": togglePlay,
  "+": () => zoomAtCentre(ZOOM_STEP),
  "=": () => zoomAtCentre(ZOOM_STEP),
  "-": () => zoomAtCentre(1 / ZOOM_STEP),
  0: fitAgain,
  w: toggleWhole,
};

document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) {
    return;
  }
  const arrow = event.key.startsWith("Arrow");
  const action = KEYS[event.shiftKey && arrow ? `Shift+${event.key}` : event.key];
  if (action && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    action();
  }
});

window.addEventListener("resize", () => {
  if (focus.autoFit) {
    fitView();
  }
});

start();
