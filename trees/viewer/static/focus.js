/*
 * cogtree viewer, focus: which nodes of a tick are drawn, how they are laid out, and where
 * the view looks.
 *
 * Subtrees that did not run in the shown tick are folded into their top node (a dashed
 * box saying how many nodes it holds); a click opens one, a double click folds an open
 * one again, and "whole tree" draws everything. After each draw the view fits what was
 * drawn, or the visited path when that would be too small to read, never below
 * READABLE_SCALE (node names are 14 px at scale 1); when even the path is too big, the
 * view centres on the last node visited. Zooming or panning by hand stops the fitting
 * until "fit" (or the 0 key) asks for it again.
 */
"use strict";

const READABLE_SCALE = 0.8; // 14 px names at scale 1: 11.2 px on screen
const LARGEST_SCALE = 1.25;
const SMALLEST_SCALE = 0.05;
const FIT_PADDING = 24;
const NODE_SIZE = { width: 170, height: 42 };
const LAYOUT = { nodeSep: 16, rankSep: 22, marginX: 20, marginY: 20, rankDir: "TB" };
const PAN_STEP = 80;
const ZOOM_STEP = 1.2;

const focus = {
  whole: false, // draw every node
  opened: new Set(), // ids of nodes the user opened although they did not run
  closed: new Set(), // ids of nodes the user folded although they ran
  autoFit: true, // fit the view after each draw (until the user zooms or pans)
  folded: new Map(), // id -> nodes hidden under it, in the drawn tree
};

/* The tree py_trees_js draws for a snapshot: folded subtrees cut off at their top node. */
function drawnTree(snapshot) {
  const behaviours = snapshot.behaviours;
  const visited = new Set(snapshot.visited_path);
  const isChild = new Set(Object.values(behaviours).flatMap((node) => node.children || []));
  const kept = {};
  const folded = new Map();
  const size = (id) =>
    (behaviours[id].children || []).reduce((total, child) => total + 1 + size(child), 0);
  const keep = (id) => {
    const node = behaviours[id];
    const children = node.children || [];
    const open =
      focus.whole || (visited.has(id) ? !focus.closed.has(id) : focus.opened.has(id));
    if (open || children.length === 0) {
      kept[id] = node;
      children.forEach(keep);
      return;
    }
    const hidden = size(id);
    const why = visited.has(id) ? "folded" : "did not run";
    kept[id] = { ...node, children: [], details: `+${hidden} nodes ${why}: click to open` };
    folded.set(id, hidden);
  };
  Object.keys(behaviours)
    .filter((id) => !isChild.has(id))
    .forEach(keep);
  return { tree: { ...snapshot, behaviours: kept }, folded: folded };
}

/* Draw a snapshot on the canvas: fold, lay out when the drawn nodes changed, fit. */
function drawTree(snapshot, include) {
  const drawn = drawnTree(snapshot);
  focus.folded = drawn.folded;
  canvas_paper.freeze();
  const added = py_trees.canvas.update_graph({ graph: canvas_graph, tree: drawn.tree }) || [];
  if (added.length > 0) {
    layOut(added);
  }
  if (focus.autoFit || include) {
    fitView(include);
  }
  canvas_paper.unfreeze();
}

function layOut(cells) {
  for (const cell of cells) {
    if (cell.isLink()) {
      cell.prop("source/anchor", { name: "bottom" });
      cell.prop("target/anchor", { name: "top" });
      cell.router("normal");
      cell.connector("smooth");
      continue;
    }
    cell.resize(NODE_SIZE.width, NODE_SIZE.height);
    const folded = focus.folded.has(cell.get("behaviour_id"));
    cell.attr({
      box: folded ? { strokeDasharray: "6 4", stroke: "#d9c36a" } : { strokeDasharray: "none" },
      collapse: { visibility: folded ? "visible" : "hidden", fill: "#d9c36a" },
    });
  }
  canvas_graph.set("bounding_box", joint.layout.DirectedGraph.layout(canvas_graph, LAYOUT));
  for (const cell of cells) {
    const view = canvas_paper.findViewByModel(cell);
    if (view && view.updateBox) {
      view.listenTo(canvas_paper, "translate", view.updateBox);
      view.listenTo(canvas_paper, "scale", view.updateBox);
    }
  }
  canvas_paper.updateViews();
}

function elementOf(id) {
  return canvas_graph.getElements().find((element) => element.get("behaviour_id") === id);
}

function boxAround(elements) {
  return elements.reduce((box, element) => {
    const own = element.getBBox();
    return box ? box.union(own) : own;
  }, null);
}

/*
 * Fit the view: what is drawn if that is readable, else the visited path (and the node
 * `include` with its children) at the readable scale, with as much around it as fits; when
 * even that overflows, on `include` or the tick's focal node, with its ancestors above it.
 */
function fitView(include) {
  const elements = canvas_graph.getElements();
  const tree = canvas_graph.get("tree") || {};
  const visited = new Set(tree.visited_path || []);
  if (elements.length === 0) {
    return;
  }
  const size = canvas_paper.getComputedSize();
  const room = { width: size.width - 2 * FIT_PADDING, height: size.height - 2 * FIT_PADDING };
  const fits = (box) => Math.min(room.width / box.width, room.height / box.height);
  const everything = boxAround(elements);
  let area = everything;
  let scale = Math.max(SMALLEST_SCALE, Math.min(LARGEST_SCALE, fits(everything)));
  if (!focus.whole && scale < READABLE_SCALE) {
    const wanted = new Set(visited);
    if (include) {
      wanted.add(include);
      (tree.behaviours[include].children || []).forEach((child) => wanted.add(child));
    }
    const kept = elements.filter((element) => wanted.has(element.get("behaviour_id")));
    area = boxAround(kept) || everything;
    scale = READABLE_SCALE;
  }
  const anchorId = include || focalNode(tree);
  const anchor = anchorId !== undefined ? elementOf(anchorId) : null;
  const centre = area.center();
  const seen = { width: room.width / scale, height: room.height / scale };
  for (const [axis, length, start] of [
    ["x", "width", "x"],
    ["y", "height", "y"],
  ]) {
    if (area[length] > seen[length] && anchor) {
      const box = anchor.getBBox();
      centre[axis] =
        axis === "x" ? box.center().x : box.y + box.height + FIT_PADDING - seen.height / 2;
    } else if (everything[length] > seen[length]) {
      // show as much around the area as fits, without empty space beyond the drawing
      const low = everything[start] + seen[length] / 2;
      const high = everything[start] + everything[length] - seen[length] / 2;
      const keepsArea = (value) =>
        Math.min(Math.max(value, area[start] + area[length] - seen[length] / 2), area[start] + seen[length] / 2);
      centre[axis] = keepsArea(Math.min(Math.max(centre[axis], low), high));
    }
  }
  canvas_paper.scale(scale, scale);
  canvas_paper.translate(size.width / 2 - centre.x * scale, size.height / 2 - centre.y * scale);
}

/*
 * Where the eye should go in a tick: the last node that decided in it, else the last visited
 * node that failed, else the last one running, else the last one visited.
 */
function focalNode(tree) {
  const path = tree.visited_path || [];
  const nodes = (tree.cogtree && tree.cogtree.nodes) || {};
  const last = (wanted) => [...path].reverse().find((id) => nodes[id] && wanted(nodes[id]));
  return (
    last((node) => node.rationale && node.rationale.fresh) ||
    last((node) => node.status === "FAILURE") ||
    last((node) => node.status === "RUNNING" && node.kind === "leaf") ||
    path[path.length - 1]
  );
}

/* Move the view (at a readable scale) so the node is in the middle of the canvas. */
function centreOn(id) {
  const element = elementOf(id);
  if (!element) {
    return;
  }
  const size = canvas_paper.getComputedSize();
  const scale = Math.max(READABLE_SCALE, canvas_paper.scale().sx);
  const centre = element.getBBox().center();
  canvas_paper.scale(scale, scale);
  canvas_paper.translate(size.width / 2 - centre.x * scale, size.height / 2 - centre.y * scale);
}

/* Open every folded node above `id`, so it is drawn. True when something was opened. */
function unfoldTo(id, snapshot) {
  const parents = {};
  for (const [parent, node] of Object.entries(snapshot.behaviours)) {
    (node.children || []).forEach((child) => (parents[child] = parent));
  }
  const visited = new Set(snapshot.visited_path);
  let opened = false;
  for (let above = parents[id]; above !== undefined; above = parents[above]) {
    if (visited.has(above)) {
      opened = focus.closed.delete(above) || opened;
    } else if (!focus.opened.has(above)) {
      focus.opened.add(above);
      opened = true;
    }
  }
  return opened;
}

/* A click on a folded node opens it; a double click on an open composite folds it. */
function toggleFold(id, snapshot) {
  const visited = new Set(snapshot.visited_path);
  const node = snapshot.behaviours[id];
  if (!node || (node.children || []).length === 0) {
    return;
  }
  const folded = focus.folded.has(id);
  if (visited.has(id)) {
    folded ? focus.closed.delete(id) : focus.closed.add(id);
  } else {
    folded ? focus.opened.add(id) : focus.opened.delete(id);
  }
  drawTree(snapshot, id);
}

function zoomBy(factor, originX, originY) {
  const scale = canvas_paper.scale().sx;
  const next = Math.max(SMALLEST_SCALE, Math.min(3, scale * factor));
  const offset = canvas_paper.translate();
  focus.autoFit = false;
  canvas_paper.scale(next, next);
  canvas_paper.translate(
    originX - ((originX - offset.tx) * next) / scale,
    originY - ((originY - offset.ty) * next) / scale,
  );
}

function panBy(dx, dy) {
  const offset = canvas_paper.translate();
  focus.autoFit = false;
  canvas_paper.translate(offset.tx + dx, offset.ty + dy);
}

function zoomAtCentre(factor) {
  const size = canvas_paper.getComputedSize();
  zoomBy(factor, size.width / 2, size.height / 2);
}

function fitAgain() {
  focus.autoFit = true;
  fitView();
}

/* Mouse: the wheel zooms about the pointer, dragging the background pans. */
function wireFocus() {
  canvas_graph.set("scale_content_to_fit", false);
  canvas_paper.off("blank:mousewheel");
  canvas_paper.off("element:pointerdblclick");
  canvas_paper.off("blank:pointerdblclick");
  canvas_paper.on("blank:pointerdblclick", fitAgain);
  canvas_paper.on("blank:pointermove", () => (focus.autoFit = false));
  const canvas = document.getElementById("canvas");
  canvas.addEventListener(
    "wheel",
    (event) => {
      event.preventDefault();
      const rect = canvas.getBoundingClientRect();
      zoomBy(Math.exp(-event.deltaY * 0.0015), event.clientX - rect.left, event.clientY - rect.top);
    },
    { passive: false },
  );
}
