"""What a WS2812B shows for a palette entry, as a colour a person sees (CIELAB), and how far apart two look.

    lab(rgb)                      CIELAB of the light, relative to the LED's own white
    lab(rgb, scale=64)            ... after the renderer's power limit scaled every LED to 64/256
    lab(rgb, vision="deutan")     ... as a deuteranope sees it (Machado et al. 2009, severity 1)
    distance(a, b, ...)           CIEDE2000 between two entries under the same conditions

Why the model is what it is (docs/palettes.md says the same for players and game authors):
- The light, not the number: a WS2812B drives each die with PWM, so emitted power is linear in the
  byte (there is no sRGB gamma on the strip), and the three dies are near-monochromatic. Each
  primary is the CIE 1931 spectral-locus point at the datasheet's dominant wavelength (the middle of
  its range), weighted by the middle of its luminous-intensity range: a real die's 20-35 nm bandwidth
  puts it slightly inside the locus, so true distances between saturated entries are a little smaller
  than computed here, a reason the thresholds keep a margin.
- The eye adapts to the board: white is what equal full drive (255, 255, 255) gives (about x 0.255,
  y 0.248: the cold white WS2812s are known for), and when the renderer's power limit scales every
  LED by the same factor the eye adapts to the dimmer white too; what is left is rounding, which this
  model repeats exactly (``v * k >> 8``, firmware/bbfw/render.py) and which matters for dim entries.
- Colour-vision deficiency: Machado, Oliveira & Fernandes 2009 matrices act on linear sRGB, so the
  LED's XYZ is adapted from its white to D65 (CAT02), turned into linear sRGB (unclipped: LED
  primaries lie outside sRGB, and the matrices are linear), simulated, and measured in CIELAB (D65).

Sources: Worldsemi WS2812B datasheet (V5): red 620-630 nm, 550-700 mcd; green 515-530 nm,
1100-1400 mcd; blue 465-475 nm, 200-400 mcd. CIE 1931 2-degree observer, CIEDE2000 and the Machado
matrices as implemented by colour-science (pinned in pyproject.toml's test extra).
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Sequence

import numpy as np

with warnings.catch_warnings():  # colour-science warns that optional SciPy/Matplotlib are absent
    warnings.simplefilter("ignore")
    import colour

# (dominant wavelength nm, luminous intensity mcd): the middle of the datasheet's ranges
PRIMARIES = {"red": (625, 625.0), "green": (522, 1250.0), "blue": (470, 300.0)}
FULL = 256  # the renderer's scale when no limit applies
VISIONS = ("normal", "deutan", "protan")


def _primary_xyz(wavelength: int, mcd: float) -> np.ndarray:
    xyz = colour.MSDS_CMFS["CIE 1931 2 Degree Standard Observer"][wavelength]
    x, y = xyz[0] / xyz.sum(), xyz[1] / xyz.sum()
    return np.array([x / y * mcd, mcd, (1 - x - y) / y * mcd])


@lru_cache(maxsize=1)
def rgb_to_xyz() -> np.ndarray:
    """Columns: the XYZ of each die at full drive, scaled so that full white has Y = 1."""
    m = np.stack([_primary_xyz(*PRIMARIES[c]) for c in ("red", "green", "blue")], axis=1)
    return np.asarray(m / m[1].sum())


def emitted(rgb: Sequence[int], scale: int = FULL) -> np.ndarray:
    """XYZ of what the LED emits for palette ``rgb`` at renderer scale ``scale`` (0..256)."""
    drive = np.array([(v * scale) >> 8 if scale < FULL else v for v in rgb], dtype=float)
    return np.asarray(rgb_to_xyz() @ (drive / 255.0))


def _white(scale: int) -> np.ndarray:
    return emitted((255, 255, 255), scale)


@lru_cache(maxsize=4096)
def lab(rgb: tuple[int, int, int], scale: int = FULL, vision: str = "normal") -> tuple[float, float, float]:
    xyz, white = emitted(rgb, scale), _white(scale)
    if vision == "normal":
        out = colour.XYZ_to_Lab(xyz / white[1], colour.XYZ_to_xy(white))
    else:
        d65 = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]
        adapted = colour.chromatic_adaptation(xyz / white[1], white / white[1], colour.xy_to_XYZ(d65),
                                              method="Von Kries", transform="CAT02")
        srgb = colour.RGB_COLOURSPACES["sRGB"]
        linear = colour.XYZ_to_RGB(adapted, srgb, apply_cctf_encoding=False)
        kind = {"deutan": "Deuteranomaly", "protan": "Protanomaly"}[vision]
        seen = colour.matrix_cvd_Machado2009(kind, 1.0) @ linear
        out = colour.XYZ_to_Lab(colour.RGB_to_XYZ(seen, srgb, apply_cctf_decoding=False), d65)
    return float(out[0]), float(out[1]), float(out[2])


def distance(a: Sequence[int], b: Sequence[int], scale: int = FULL, vision: str = "normal",
             chromatic: bool = False) -> float:
    """CIEDE2000 between two palette colours as they look on the board; ``chromatic``: with their
    lightness made equal, so only hue and chroma count (for an entry that blinks or breathes)."""
    la = np.array(lab(tuple(a), scale, vision))  # type: ignore[arg-type]
    lb = np.array(lab(tuple(b), scale, vision))  # type: ignore[arg-type]
    if chromatic:
        la[0] = lb[0] = (la[0] + lb[0]) / 2
    return float(colour.delta_E(la, lb, method="CIE 2000"))
