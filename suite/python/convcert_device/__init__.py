"""A device under test for convcert in a few lines: the batch protocol of suite/ADAPTERS.md with numpy."""
from convcert_device.device import ALIASES, WIDTHS, Device, canonical

__all__ = ["ALIASES", "Device", "WIDTHS", "canonical"]
