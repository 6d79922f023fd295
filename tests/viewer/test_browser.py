"""The viewer page in headless Chromium (Selenium): it loads from the local server, draws the
tree with py_trees_js, follows a live feed, replays a log with scrubbing, and shows a gate's
rationale when the gate is clicked. A log opens at its last tick with what ran in focus
(readable labels, the rest folded), the story panel lists the turn's decisions, and the arrow
keys jump between the timeline's marks. Screenshots go to ``$COGTREE_ARTIFACTS/viewer`` (by
default ``test-artifacts/viewer`` at the repository root).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.trees.recording.tick_log import LogHeader, read_tick_log
from cogtree.trees.runner import TreeRunner
from cogtree.trees.testing import BlackboardView
from cogtree.trees.viewer.feed import TickFeed
from cogtree.trees.viewer.server import ViewerServer
from tests.viewer.small_run import REFUSAL
from tests.viewer.viewer_extra import needs_viewer_extra

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT_S = 30
MARKS = "#marks .mark"
READABLE_PX = 11.0
REPOSITORY = Path(__file__).resolve().parents[2]

pytestmark = [
    needs_viewer_extra,
    pytest.mark.skipif(
        CHROMIUM is None or not Path(CHROMEDRIVER).is_file(),
        reason="needs Debian's chromium and chromium-driver (`apt-get install chromium "
        "chromium-driver`; .ci/run installs them)",
    ),
]


def artifacts() -> Path:
    folder = Path(os.environ.get("COGTREE_ARTIFACTS") or REPOSITORY / "test-artifacts") / "viewer"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1600,1000",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(service=service, options=options)
    yield driver
    driver.quit()


def wait_for(driver: Any, condition: Callable[[Any], Any], what: str) -> Any:
    try:
        return WebDriverWait(driver, WAIT_S, poll_frequency=0.05).until(condition)
    except TimeoutException:
        raise AssertionError(f"the page never showed {what}") from None


def shown_tick(driver: Any) -> int | None:
    tick = driver.execute_script("return document.body.dataset.tick")
    return int(tick) if tick else None


def drawn_status(driver: Any, name: str) -> str | None:
    """A node's status as py_trees_js drew it (its tooltip), found by the node's name."""
    status: str | None = driver.execute_script(
        """
        for (const box of document.querySelectorAll('#canvas .html-element')) {
            const name = box.querySelector('.html-name');
            if (name && name.textContent === arguments[0]) {
                const tooltip = box.querySelector('.html-tooltip').textContent;
                const match = /Status: (SUCCESS|FAILURE|RUNNING|INVALID)/.exec(tooltip);
                return match ? match[1] : null;
            }
        }
        return null;
        """,
        name,
    )
    return status


def click_node(driver: Any, name: str) -> None:
    """Click the node on the canvas, where a user would (the SVG under its label)."""
    label = driver.find_element(By.XPATH, f"//span[@class='html-name' and text()='{name}']")
    ActionChains(driver).move_to_element(label).click().perform()


def severe_console_messages(driver: Any) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.fixture
def replay(assistant_log: Path) -> Iterator[ViewerServer]:
    with ViewerServer(TickFeed.from_log(assistant_log)) as server:
        yield server


def test_the_page_loads_from_the_local_server_and_draws_the_tree(
    browser: Any, replay: ViewerServer, assistant_log: Path
) -> None:
    header, ticks = read_tick_log(assistant_log)
    started = time.perf_counter()
    browser.get(replay.url)
    drawn = wait_for(
        browser,
        lambda driver: driver.find_elements(By.CSS_SELECTOR, "#canvas .html-element"),
        "the tree's nodes",
    )
    loaded_s = time.perf_counter() - started
    names = {
        element.get_attribute("textContent")
        for element in browser.find_elements(By.CSS_SELECTOR, "#canvas .html-name")
    }
    assert 0 < len(drawn) < len(header.structure)  # what did not run is folded
    assert {"Assistant", "Decide"} <= names
    wait_for(browser, lambda driver: shown_tick(driver) == ticks[-1].tick, "the last tick")
    marks = wait_for(
        browser,
        lambda driver: driver.find_elements(By.CSS_SELECTOR, MARKS),
        "marks on the timeline",
    )
    assert marks
    loaded = browser.execute_script(
        "return performance.getEntriesByType('resource').map((entry) => entry.name)"
    )
    assert loaded and all(url.startswith(replay.url) for url in loaded)  # nothing external
    assert severe_console_messages(browser) == []
    browser.save_screenshot(str(artifacts() / "viewer-replay-loaded.png"))
    print(f"\nviewer page: {len(drawn)} nodes drawn {loaded_s:.2f} s after the request")


def test_replay_scrubs_back_and_forth(
    browser: Any, replay: ViewerServer, assistant_log: Path
) -> None:
    header, ticks = read_tick_log(assistant_log)
    numbers = [entry.tick for entry in ticks]
    gate = gate_id(header)
    gate_status = {
        entry.tick: next(state.status for state in entry.nodes if state.id == gate)
        for entry in ticks
    }
    browser.get(replay.url)
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[-1], "the last tick")

    browser.find_element(By.ID, "prev").click()
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[-2], "the tick before")
    browser.find_element(By.ID, "next").click()
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[-1], "the last tick again")

    target = decision_tick(assistant_log)
    slider = browser.find_element(By.ID, "slider")
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
        slider,
        numbers.index(target),
    )
    wait_for(browser, lambda driver: shown_tick(driver) == target, f"tick {target}")
    wait_for(
        browser,
        lambda driver: drawn_status(driver, "TaskReadinessGate") == gate_status[target],
        f"the gate's status at tick {target}",
    )
    assert "tick " + str(target) in browser.find_element(By.ID, "tick-label").text

    browser.find_element(By.ID, "first").click()
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[0], "the first tick")
    browser.find_element(By.ID, "live").click()  # "end" in a replay
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[-1], "the last tick")
    browser.find_element(By.ID, "first").click()
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[0], "the first tick")
    Select(browser.find_element(By.ID, "speed")).select_by_value("50")
    browser.find_element(By.ID, "play").click()
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[-1], "play reaching the end")


def test_clicking_a_gate_shows_its_decision_and_rationale(
    browser: Any, replay: ViewerServer, assistant_log: Path
) -> None:
    target = decision_tick(assistant_log)
    browser.get(replay.url)
    wait_for(browser, shown_tick, "a tick")
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
        browser.find_element(By.ID, "slider"),
        [entry.tick for entry in read_tick_log(assistant_log)[1]].index(target),
    )
    wait_for(browser, lambda driver: shown_tick(driver) == target, f"tick {target}")

    click_node(browser, "TaskReadinessGate")
    rationale = wait_for(
        browser,
        lambda driver: driver.find_element(By.ID, "details-rationale").text or None,
        "the gate's rationale",
    )
    assert rationale == REFUSAL
    assert browser.find_element(By.ID, "details-name").text == "TaskReadinessGate"
    assert "decided by model, this tick" in browser.find_element(By.ID, "details-decided").text
    assert "Reject" in browser.find_element(By.ID, "details-decision-fields").text
    calls = browser.find_element(By.ID, "details-calls").text
    assert "scripted" in calls and "ok" in calls
    writes = browser.find_element(By.ID, "details-writes").text
    assert "/turn/control = Reject" in writes
    browser.save_screenshot(str(artifacts() / "viewer-gate-rationale.png"))


def test_a_live_feed_updates_the_statuses_as_the_tree_ticks(
    browser: Any, blackboard: BlackboardView
) -> None:
    wait_leaf = py_trees.behaviours.StatusQueue(
        name="WaitForModel", queue=[Status.RUNNING, Status.SUCCESS], eventually=Status.SUCCESS
    )
    say = py_trees.behaviours.Success(name="Say")
    root = py_trees.composites.Sequence("Turn", memory=True, children=[wait_leaf, say])
    feed = TickFeed(keep=100)
    with (
        LLMClient(LLMConfig.load().with_backend("none")) as llm,
        TreeRunner(root, llm=llm, on_tick=feed.on_tick) as runner,
        ViewerServer(feed) as server,
    ):
        runner.setup()
        browser.get(server.url)
        wait_for(
            browser,
            lambda driver: "waiting" in driver.find_element(By.ID, "tick-label").text,
            "that it waits for the first tick",
        )
        runner.tick()
        wait_for(browser, lambda driver: shown_tick(driver) == 1, "tick 1")
        wait_for(browser, lambda d: drawn_status(d, "WaitForModel") == "RUNNING", "RUNNING")
        assert drawn_status(browser, "Say") == "INVALID"

        runner.tick()
        wait_for(browser, lambda driver: shown_tick(driver) == 2, "tick 2")
        wait_for(browser, lambda d: drawn_status(d, "WaitForModel") == "SUCCESS", "SUCCESS")
        wait_for(browser, lambda d: drawn_status(d, "Say") == "SUCCESS", "Say's SUCCESS")
        assert browser.find_element(By.ID, "root-status").text == "SUCCESS"
        browser.save_screenshot(str(artifacts() / "viewer-live.png"))


def gate_id(header: LogHeader) -> str:
    """The readiness gate's node id in a run of the assistant tree."""
    return next(shape.id for shape in header.structure if shape.name == "TaskReadinessGate")


def decision_tick(log: Path) -> int:
    """The tick where the readiness gate decided on the model's advice."""
    _, ticks = read_tick_log(log)
    return next(
        entry.tick
        for entry in ticks
        for write in entry.writes
        if write.key == "/rationale/taskreadinessgate" and write.value["source"] == "model"
    )


# -- what ran in focus, the story, the marks (the thirsty log, at the sizes users have) ---------


@pytest.fixture
def thirsty(thirsty_log: Path) -> Iterator[ViewerServer]:
    with ViewerServer(TickFeed.from_log(thirsty_log)) as server:
        yield server


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    """The browser window at 1400×900 (the size of the issue's first try); restored after."""
    browser.set_window_size(1400, 900)
    yield browser
    browser.set_window_size(1600, 1000)


def open_at_end(driver: Any, server: ViewerServer, log: Path) -> tuple[LogHeader, list[Any]]:
    """Open ``log`` in the page and wait until its last tick is drawn and told."""
    header, ticks = read_tick_log(log)
    driver.get(server.url)
    wait_for(driver, lambda d: shown_tick(d) == ticks[-1].tick, "the last tick")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#story-entries .entry"), "a story")
    return header, ticks


def labels(driver: Any) -> dict[str, dict[str, Any]]:
    """Each drawn node's label by name: font size in px, box on screen, detail text."""
    found: dict[str, dict[str, Any]] = driver.execute_script(
        """
        const found = {};
        for (const box of document.querySelectorAll('#canvas .html-element')) {
            const name = box.querySelector('.html-name');
            const rect = name.getBoundingClientRect();
            found[name.textContent] = {
                px: parseFloat(getComputedStyle(name).fontSize),
                left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom,
                detail: box.querySelector('.html-detail').textContent,
            };
        }
        return found;
        """
    )
    return found


def canvas_rect(driver: Any) -> dict[str, float]:
    rect: dict[str, float] = driver.execute_script(
        "return document.getElementById('canvas').getBoundingClientRect().toJSON()"
    )
    return rect


def inside(label: dict[str, Any], rect: dict[str, float]) -> bool:
    return bool(
        label["left"] >= rect["left"] - 1
        and label["right"] <= rect["right"] + 1
        and label["top"] >= rect["top"] - 1
        and label["bottom"] <= rect["bottom"] + 1
    )


def names_by_id(log: Path) -> dict[str, str]:
    header, ticks = read_tick_log(log)
    names = {shape.id: shape.name for shape in header.structure}
    for entry in ticks:
        names.update({shape.id: shape.name for shape in entry.structure or []})
    return names


def visited_names(log: Path, tick: int) -> list[str]:
    _, ticks = read_tick_log(log)
    names = names_by_id(log)
    entry = next(entry for entry in ticks if entry.tick == tick)
    return [names[state.id] for state in entry.nodes if state.visited]


def assert_visited_path_readable(driver: Any, log: Path, tick: int) -> None:
    shown = wait_for(
        driver,
        lambda d: (found := labels(d)) and set(visited_names(log, tick)) <= set(found) and found,
        "the visited path's labels",
    )
    rect = canvas_rect(driver)
    for name in visited_names(log, tick):
        assert shown[name]["px"] >= READABLE_PX, f"{name}: {shown[name]['px']} px"
        assert inside(shown[name], rect), f"{name} is outside the canvas: {shown[name]}"


def test_a_log_opens_at_its_last_tick_with_the_visited_path_readable(
    laptop: Any, thirsty: ViewerServer, thirsty_log: Path
) -> None:
    header, ticks = open_at_end(laptop, thirsty, thirsty_log)
    assert_visited_path_readable(laptop, thirsty_log, ticks[-1].tick)
    laptop.save_screenshot(str(artifacts() / "viewer-thirsty-default.png"))


def test_labels_are_readable_at_1920_by_1080(
    browser: Any, thirsty: ViewerServer, thirsty_log: Path
) -> None:
    browser.set_window_size(1920, 1080)
    try:
        _, ticks = open_at_end(browser, thirsty, thirsty_log)
        assert_visited_path_readable(browser, thirsty_log, ticks[-1].tick)
    finally:
        browser.set_window_size(1600, 1000)


def test_subtrees_that_did_not_run_are_folded_and_open_on_click(
    laptop: Any, thirsty: ViewerServer, thirsty_log: Path
) -> None:
    header, ticks = open_at_end(laptop, thirsty, thirsty_log)
    last = ticks[-1]
    visited = {state.id for state in last.nodes if state.visited}
    shapes = {shape.id: shape for shape in header.structure}
    for entry in ticks:
        shapes.update({shape.id: shape for shape in entry.structure or []})
    root = header.structure[0]
    folded = [shapes[child] for child in root.children if child not in visited]
    folded = [shape for shape in folded if shape.children]
    assert folded, "the last tick of the thirsty run should leave a composite unvisited"
    drawn = wait_for(laptop, lambda d: labels(d), "the drawn nodes")
    for shape in folded:  # each drawn as one marked node; nothing under it drawn
        assert "did not run" in drawn[shape.name]["detail"]
        assert not {shapes[child].name for child in shape.children} & set(drawn)
    decide = next(shape for shape in folded if shape.name == "Decide")

    click_node(laptop, "Decide")
    children = {shapes[child].name for child in decide.children}
    opened = wait_for(
        laptop, lambda d: children <= set(labels(d)) and labels(d), "Decide's children"
    )
    assert "did not run" not in opened["Decide"]["detail"]

    laptop.find_element(By.ID, "whole").click()
    wait_for(
        laptop,
        lambda d: len(labels(d)) == len(last.structure or shapes),
        "the whole tree",
    )


def rationale_writes(log: Path) -> list[tuple[int, str]]:
    """Every gate decision in the log: (tick, node), in order."""
    _, ticks = read_tick_log(log)
    return [
        (entry.tick, write.value["node"])
        for entry in ticks
        for write in entry.writes
        if write.key.startswith("/rationale/")
    ]


def test_the_story_lists_every_decision_and_an_entry_moves_the_view(
    laptop: Any, thirsty: ViewerServer, thirsty_log: Path
) -> None:
    open_at_end(laptop, thirsty, thirsty_log)
    items = laptop.find_elements(By.CSS_SELECTOR, "#story-entries .entry.decision")
    listed = [
        (int(item.get_attribute("data-tick")), item.get_attribute("data-node-name"))
        for item in items
    ]
    assert listed == rationale_writes(thirsty_log)
    said = laptop.find_element(By.CSS_SELECTOR, "#story-entries .entry.said").text
    assert "I took care of it." in said
    plan = laptop.find_element(By.CSS_SELECTOR, "#story-entries .entry.plan").text
    assert "HANDOVER(object=water_bottle, person=alex, hand=right)" in plan
    assert "SUCCESS" in plan

    gate = next(
        item for item in items if item.get_attribute("data-node-name") == "TaskReadinessGate"
    )
    tick = int(gate.get_attribute("data-tick"))
    before = laptop.execute_script("return canvas_paper.translate()")
    gate.click()
    wait_for(laptop, lambda d: shown_tick(d) == tick, f"tick {tick}")
    wait_for(
        laptop,
        lambda d: d.find_element(By.ID, "details-name").text == "TaskReadinessGate",
        "the gate's details",
    )
    assert laptop.execute_script("return document.body.dataset.selected") == gate.get_attribute(
        "data-node"
    )
    assert laptop.execute_script("return canvas_paper.translate()") != before
    shown = labels(laptop)["TaskReadinessGate"]
    assert inside(shown, canvas_rect(laptop)) and shown["px"] >= READABLE_PX
    assert "now" in gate.get_attribute("class")


def marked_ticks(log: Path) -> list[int]:
    """Ticks where a gate decided, a plan was made, a skill failed or the robot spoke."""
    _, ticks = read_tick_log(log)

    def marks(write: Any) -> bool:
        if write.key in ("/plan/current", "/turn/reply") or write.key.startswith("/rationale/"):
            return True
        return write.key == "/skill/outcome" and write.value["status"] != "succeeded"

    return [entry.tick for entry in ticks if any(marks(write) for write in entry.writes)]


def test_the_arrow_keys_jump_between_the_marks(
    laptop: Any, thirsty: ViewerServer, thirsty_log: Path
) -> None:
    _, ticks = open_at_end(laptop, thirsty, thirsty_log)
    expected = marked_ticks(thirsty_log)
    drawn = [
        int(mark.get_attribute("data-tick"))
        for mark in laptop.find_elements(By.CSS_SELECTOR, MARKS)
    ]
    assert drawn == expected
    body = laptop.find_element(By.TAG_NAME, "body")
    for wanted in reversed(expected[-3:]):
        body.send_keys(Keys.ARROW_LEFT)
        wait_for(laptop, lambda d, wanted=wanted: shown_tick(d) == wanted, f"mark {wanted}")
    body.send_keys(Keys.ARROW_RIGHT)
    wait_for(laptop, lambda d: shown_tick(d) == expected[-2], f"mark {expected[-2]}")
    body.send_keys(".")
    numbers = [entry.tick for entry in ticks]
    following = numbers[numbers.index(expected[-2]) + 1]
    wait_for(laptop, lambda d: shown_tick(d) == following, f"tick {following}")
