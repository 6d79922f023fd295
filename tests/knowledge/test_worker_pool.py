import threading

from cogtree.knowledge.worker_pool import WorkerPool


def test_submit_returns_at_once_and_wait_idle_tracks_running_work() -> None:
    gate = threading.Event()
    with WorkerPool(2, "test") as pool:
        future = pool.submit(gate.wait, 5)
        assert not future.done()
        assert pool.wait_idle(0.05) is False  # still running
        gate.set()
        assert pool.wait_idle(5) is True
        assert future.result() is True
        assert pool.submit(lambda x, y=0: x + y, 1, y=2).result(timeout=5) == 3
