"""A device under test for convcert in a few lines: the batch protocol of suite/ADAPTERS.md with numpy."""
from convcert_device.device import WIDTHS, Device

__all__ = ["Device", "WIDTHS"]
