"""Where the agent fixtures and the shared study data live."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "agents"
STUDY = ROOT.parent / "shared" / "agent-study"
TRAJECTORIES = STUDY / "trajectories"
