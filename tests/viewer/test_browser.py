"""The viewer page in headless Chromium (Selenium): it loads from the local server, draws the
tree with py_trees_js, follows a live feed, replays a log with scrubbing, and shows a gate's
rationale when the gate is clicked. Screenshots go to ``$COGTREE_ARTIFACTS/viewer`` (by
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

from behaviours.llm.client import LLMClient
from behaviours.llm.config import LLMConfig
from tests.viewer.small_run import REFUSAL
from trees.recording.tick_log import LogHeader, read_tick_log
from trees.runner import TreeRunner
from trees.testing import BlackboardView
from trees.viewer.feed import TickFeed
from trees.viewer.server import ViewerServer

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT_S = 30
TIMELINE_MARKERS = '#timeline [data-type="trees.EventMarker"]'
REPOSITORY = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or not Path(CHROMEDRIVER).is_file(),
    reason="needs Debian's chromium and chromium-driver (`apt-get install chromium "
    "chromium-driver`; .ci/run installs them)",
)


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
    assert len(drawn) == len(header.structure)
    assert {"Assistant", "TaskReadinessGate", "Respond"} <= names
    assert wait_for(browser, shown_tick, "the first tick") == ticks[0].tick
    markers = wait_for(
        browser,
        lambda driver: driver.find_elements(By.CSS_SELECTOR, TIMELINE_MARKERS),
        "markers on the py_trees_js timeline",
    )
    assert markers
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
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[0], "the first tick")

    browser.find_element(By.ID, "next").click()
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[1], "the second tick")
    browser.find_element(By.ID, "prev").click()
    wait_for(browser, lambda driver: shown_tick(driver) == numbers[0], "the first tick again")

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
    wait_for(browser, shown_tick, "the first tick")
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
