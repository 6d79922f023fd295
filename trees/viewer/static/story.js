/*
 * cogtree viewer, the story: the side panel that tells each turn (what the user said, each
 * gate's decision, the plan and its steps, model calls, failed skills, what the robot said)
 * and the timeline marks under the tree, at the ticks where something of that happened.
 * Clicking an entry or a mark shows its tick (and selects its node). Every text from the
 * tree is set as text.
 */
"use strict";

const MARK_TITLES = {
  decision: "a gate decided",
  plan: "a plan was made",
  skill_failed: "a skill failed",
  said: "the robot spoke",
};
const SOURCE_NAMES = { fast_path: "fast path", model: "model", safe_default: "safe default" };

const story = {
  entries: [], // from /api/story, oldest first
  marks: [], // ticks with a mark, ascending
  loaded: -1, // newest tick the story was loaded for
};

async function loadStory() {
  let answer;
  try {
    answer = await getJSON("/api/story");
  } catch (error) {
    setMessage(`the story could not be loaded: ${error.message}`);
    return;
  }
  story.entries = answer.entries;
  renderStory();
}

/* New ticks arrived: reload the story when one of them adds to it. */
function storyNoticesTicks(summaries) {
  const telling = summaries.some((summary) => summary.marks.length > 0 || summary.calls > 0);
  const newest = summaries.length > 0 ? summaries[summaries.length - 1].tick : story.loaded;
  if (telling || story.loaded < 0) {
    story.loaded = newest;
    loadStory();
  }
}

function renderStory() {
  const list = byId("story-entries");
  list.replaceChildren();
  for (const entry of story.entries) {
    list.append(storyItem(entry));
  }
  markStoryCursor();
}

function storyItem(entry) {
  const item = element("li", undefined, `entry ${entry.kind}`);
  item.dataset.tick = String(entry.tick);
  item.dataset.node = entry.node;
  item.dataset.nodeName = entry.node_name;
  item.dataset.kind = entry.kind;
  const head = element("div", undefined, "entry-head");
  head.append(element("span", `${entry.tick}`, "entry-tick"), element("span", entry.headline));
  item.append(head);
  if (entry.kind === "decision") {
    const badges = element("div", undefined, "badges");
    badges.append(element("span", SOURCE_NAMES[entry.source] || entry.source, `badge ${entry.source}`));
    if (entry.vetoed) {
      badges.append(element("span", "vetoed by the guard", "badge vetoed"));
    }
    item.append(badges);
  }
  if (entry.text) {
    item.append(element("div", entry.text, "entry-text"));
  }
  if (entry.steps.length > 0) {
    item.append(planTable(entry.steps));
  }
  item.title = entry.node_name ? `tick ${entry.tick}: show ${entry.node_name}` : `tick ${entry.tick}`;
  item.addEventListener("click", () => showEntry(entry));
  return item;
}

function planTable(steps) {
  const table = element("table", undefined, "plan");
  for (const step of steps) {
    const row = element("tr");
    const status = element("td");
    status.append(element("span", step.status || "not run", `status ${step.status || "INVALID"}`));
    row.append(element("td", `${step.id}`), element("td", step.action), element("td", step.assignee || "–"), status);
    table.append(row);
  }
  return table;
}

async function showEntry(entry) {
  await goTo(positionOf(entry.tick));
  if (!entry.node || !viewer.snapshot || !viewer.snapshot.behaviours[entry.node]) {
    return;
  }
  if (unfoldTo(entry.node, viewer.snapshot)) {
    drawTree(viewer.snapshot);
  }
  selectNode(entry.node);
  centreOn(entry.node);
}

/* Highlight the entries of the shown tick, dim those still to come, keep the latest in view. */
function markStoryCursor() {
  const cursor = viewer.cursor;
  let latest = null;
  for (const item of byId("story-entries").children) {
    const tick = Number(item.dataset.tick);
    item.classList.toggle("later", cursor !== null && tick > cursor);
    item.classList.toggle("now", tick === cursor);
    if (cursor !== null && tick <= cursor) {
      latest = item;
    }
  }
  if (latest) {
    latest.scrollIntoView({ block: "nearest" });
  }
}

// -- the timeline marks -----------------------------------------------------------------------

function renderMarks() {
  const strip = byId("marks");
  const count = viewer.ticks.length;
  story.marks = [];
  const made = [];
  viewer.ticks.forEach((tick, position) => {
    const summary = viewer.summaries.get(tick);
    if (!summary || summary.marks.length === 0) {
      return;
    }
    story.marks.push(tick);
    const mark = element("button", undefined, "mark");
    mark.type = "button";
    mark.dataset.tick = String(tick);
    mark.style.left = `${count > 1 ? (100 * position) / (count - 1) : 0}%`;
    mark.title = `tick ${tick}: ${summary.marks.map((kind) => MARK_TITLES[kind] || kind).join(", ")}`;
    for (const kind of summary.marks) {
      mark.append(element("span", undefined, `mark-${kind}`));
    }
    mark.addEventListener("click", () => goTo(position));
    made.push(mark);
  });
  strip.replaceChildren(element("div", undefined, "mark-cursor"), ...made);
  markCursor();
}

function markCursor() {
  const strip = byId("marks");
  const cursor = strip.querySelector(".mark-cursor");
  const count = viewer.ticks.length;
  if (!cursor || viewer.cursor === null) {
    return;
  }
  const position = positionOf(viewer.cursor);
  cursor.style.left = `${count > 1 ? (100 * position) / (count - 1) : 0}%`;
  for (const mark of strip.querySelectorAll(".mark")) {
    mark.classList.toggle("current", Number(mark.dataset.tick) === viewer.cursor);
  }
}

/* The next mark after the shown tick (direction 1) or the one before it (-1). */
function jumpToMark(direction) {
  if (viewer.cursor === null || story.marks.length === 0) {
    return;
  }
  const ahead =
    direction > 0
      ? story.marks.find((tick) => tick > viewer.cursor)
      : [...story.marks].reverse().find((tick) => tick < viewer.cursor);
  if (ahead !== undefined) {
    goTo(positionOf(ahead));
  }
}
