"""Small PNG charts (Pillow): line series and bar histograms on one pair of axes, with a legend. Shared by the
analysis tools (qnn-accuracy-debugger tensor inspection, qnn-quantization-checker histograms)."""
from PIL import Image, ImageDraw

COLORS = [(40, 70, 160), (210, 60, 40), (40, 150, 70), (150, 90, 180)]


def _fmt(v):
    return f"{v:.4g}"


def chart(path, title, series, xlabel="", ylabel="", bars=False, size=(800, 420)):
    """series: [(label, xs, ys)]; bars: draw each series as translucent bars (histograms)."""
    w, h = size
    left, right, top, bottom = 70, 20, 36, 50
    img = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(img, "RGBA")
    xs_all = [x for _, xs, _ in series for x in xs] or [0.0, 1.0]
    ys_all = [y for _, _, ys in series for y in ys] or [0.0, 1.0]
    x0, x1 = min(xs_all), max(xs_all)
    y0, y1 = min(ys_all + ([0.0] if bars else [])), max(ys_all)
    if x1 == x0:
        x1 = x0 + 1.0
    if y1 == y0:
        y1 = y0 + 1.0

    def px(x, y):
        return (left + (w - left - right) * (x - x0) / (x1 - x0), top + (h - top - bottom) * (1 - (y - y0) / (y1 - y0)))
    d.rectangle([left, top, w - right, h - bottom], outline=(120, 120, 120))
    for k in range(5):
        fy = y0 + (y1 - y0) * k / 4
        _, py = px(x0, fy)
        d.line([left - 4, py, left, py], fill=(120, 120, 120))
        d.text((4, py - 6), _fmt(fy), fill=(60, 60, 60))
        fx = x0 + (x1 - x0) * k / 4
        pxx, _ = px(fx, y0)
        d.line([pxx, h - bottom, pxx, h - bottom + 4], fill=(120, 120, 120))
        d.text((pxx - 15, h - bottom + 6), _fmt(fx), fill=(60, 60, 60))
    d.text((left, 8), title, fill=(0, 0, 0))
    d.text((w // 2 - 30, h - 18), xlabel, fill=(60, 60, 60))
    d.text((4, 20), ylabel, fill=(60, 60, 60))
    for i, (label, xs, ys) in enumerate(series):
        c = COLORS[i % len(COLORS)]
        if bars and len(xs) > 1:
            step = (xs[1] - xs[0])
            for x, y in zip(xs, ys):
                a, b = px(x - step / 2, y), px(x + step / 2, y0)
                d.rectangle([a[0], a[1], b[0], b[1]], fill=c + (110,))
        elif len(xs) > 1:
            d.line([px(x, y) for x, y in zip(xs, ys)], fill=c, width=2)
        else:
            for x, y in zip(xs, ys):
                cx, cy = px(x, y)
                d.ellipse([cx - 3, cy - 3, cx + 3, cy + 3], fill=c)
        d.rectangle([w - right - 150, top + 8 + 16 * i, w - right - 140, top + 18 + 16 * i], fill=c)
        d.text((w - right - 135, top + 6 + 16 * i), label, fill=(0, 0, 0))
    img.save(path, "PNG")
