"""`botboard bench table` runs end to end on the simulated board and reports every figure.

Only the shape and the consistency of the figures are checked: the figures
themselves are measurements, recorded in docs/benchmarks.md, not asserted.
"""

from __future__ import annotations

import json
import subprocess

from tests.simboard import BOTBOARD


def test_bench_table_reports_both_paths_paced_unpaced_and_while_a_computer_thinks() -> None:
    out = subprocess.run([BOTBOARD, "bench", "table", "--samples", "2", "--thinking", "process"],
                         capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    for path in ("tag_to_ack", "confirm_to_frame"):
        for pacing in ("paced", "unpaced"):
            total = figures[f"{path}_ms_p99_{pacing}"]
            assert total >= figures[f"{path}_ms_p50_{pacing}"] > 0
            parts = [figures[f"{path}_link_ms_{pacing}"], figures[f"{path}_host_ms_p99_{pacing}"],
                     figures[f"{path}_firmware_ms_p99_{pacing}"]]
            assert all(p >= 0 for p in parts) and figures[f"{path}_host_ms_p99_{pacing}"] > 0
        # at 115200 baud the frames take real time on the wire; unpaced they take none
        assert figures[f"{path}_link_ms_paced"] > 0 == figures[f"{path}_link_ms_unpaced"]
    assert figures["target_ms_p99_paced"] == 50
    for pacing in ("paced", "unpaced", "paced_thinking"):
        for q in ("p50", "p99"):  # a thread's CPU time never exceeds the time that passed
            assert 0 < figures[f"confirm_to_frame_host_cpu_ms_{q}_{pacing}"] \
                <= figures[f"confirm_to_frame_host_ms_{q}_{pacing}"]
    # measured again while a search player thought in a worker, as a computer seat does
    assert figures["thinking_in"] == "process" and figures["moves_thought_paced_thinking"] >= 0
    assert figures["confirm_to_frame_ms_p99_paced_thinking"] > 0
