//! Plots rendered off-screen with plotters: PNG at any size and scale, or SVG. A [`Plot`] is
//! plain data — series of points with the colour they have on screen, axis titles with units,
//! optional log axes and the book's reference marks — so the panel that draws it on screen
//! and the exporter draw the same thing. Text uses the bundled CJK font.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeriesKind {
    Line,
    Points,
    /// Vertical bars centred on each x.
    Bars,
}

/// One named series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub name: String,
    pub kind: SeriesKind,
    /// RGB; `None` picks from the palette by position.
    pub color: Option<[u8; 3]>,
    pub points: Vec<[f64; 2]>,
}

impl Series {
    fn of(
        name: impl Into<String>,
        kind: SeriesKind,
        points: impl IntoIterator<Item = [f64; 2]>,
    ) -> Self {
        Series {
            name: name.into(),
            kind,
            color: None,
            points: points.into_iter().collect(),
        }
    }

    pub fn line(name: impl Into<String>, points: impl IntoIterator<Item = [f64; 2]>) -> Self {
        Series::of(name, SeriesKind::Line, points)
    }

    pub fn points(name: impl Into<String>, points: impl IntoIterator<Item = [f64; 2]>) -> Self {
        Series::of(name, SeriesKind::Points, points)
    }

    pub(crate) fn bars(
        name: impl Into<String>,
        points: impl IntoIterator<Item = [f64; 2]>,
    ) -> Self {
        Series::of(name, SeriesKind::Bars, points)
    }

    pub(crate) fn color(mut self, rgb: [u8; 3]) -> Self {
        self.color = Some(rgb);
        self
    }
}

/// A reference mark: the book's figure beside ours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Mark {
    /// A horizontal line at `y` (e.g. the 0.833 ceiling).
    HLine { y: f64, label: String },
    /// A vertical line at `x` (e.g. the 20 % of queries).
    VLine { x: f64, label: String },
    /// One point (e.g. a Table 9-2 value).
    Point { x: f64, y: f64, label: String },
}

/// A plot as plain data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plot {
    pub title: String,
    /// Axis titles, with units (e.g. "cache size (entries)").
    pub x_label: String,
    pub y_label: String,
    pub x_log: bool,
    pub y_log: bool,
    pub series: Vec<Series>,
    pub marks: Vec<Mark>,
}

impl Plot {
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Plot {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            x_log: false,
            y_log: false,
            series: Vec::new(),
            marks: Vec::new(),
        }
    }

    pub fn series(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    pub(crate) fn mark(mut self, m: Mark) -> Self {
        self.marks.push(m);
        self
    }

    pub(crate) fn log_x(mut self) -> Self {
        self.x_log = true;
        self
    }

    pub(crate) fn log_y(mut self) -> Self {
        self.y_log = true;
        self
    }
}

/// Series colours when a series names none (the same order the panels use).
pub(crate) const PALETTE: [[u8; 3]; 8] = [
    [0x1f, 0x77, 0xb4],
    [0xff, 0x7f, 0x0e],
    [0x2c, 0xa0, 0x2c],
    [0xd6, 0x27, 0x28],
    [0x94, 0x67, 0xbd],
    [0x8c, 0x56, 0x4b],
    [0xe3, 0x77, 0xc2],
    [0x7f, 0x7f, 0x7f],
];

/// The colour of the book's reference marks.
pub(crate) const MARK_COLOR: [u8; 3] = [0xb0, 0x30, 0x30];

const FONT: &str = "sans-serif";

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if plotters::style::register_font(FONT, FontStyle::Normal, super::BUNDLED_CJK).is_err() {
            tracing::warn!("plot export: the bundled font did not load");
        }
    });
}

/// A coordinate as drawn: log axes draw log10 of the value (positive values only).
fn to_axis(v: f64, log: bool) -> Option<f64> {
    match (log, v.is_finite()) {
        (_, false) => None,
        (true, _) if v <= 0.0 => None,
        (true, _) => Some(v.log10()),
        (false, _) => Some(v),
    }
}

/// The drawn range of all points and marks on one axis, padded a little.
fn range(values: impl Iterator<Item = f64>, pad_zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    if pad_zero && lo > 0.0 {
        lo = 0.0;
    }
    if (hi - lo).abs() < 1e-12 {
        return (lo - 0.5, hi + 0.5);
    }
    let pad = (hi - lo) * 0.04;
    (lo - pad, hi + pad)
}

fn rgb(c: [u8; 3]) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

fn tick(v: f64, log: bool) -> String {
    let v = if log {
        // Two significant digits: 158.5 → 160, 398.1 → 400.
        let e = 10f64.powf(v);
        let mag = 10f64.powf(e.abs().log10().floor() - 1.0);
        (e / mag).round() * mag
    } else {
        v
    };
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        format!("{v:.1e}")
    } else if a >= 100.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, p: &Plot, s: f32) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let err =
        |e: DrawingAreaErrorKind<DB::ErrorType>| EngineError::Internal(format!("plot: {e:?}"));
    let px = |v: f32| (v * s).round() as i32;
    root.fill(&WHITE).map_err(err)?;
    let xs = p
        .series
        .iter()
        .flat_map(|x| x.points.iter().map(|q| q[0]))
        .chain(p.marks.iter().filter_map(|m| match m {
            Mark::VLine { x, .. } | Mark::Point { x, .. } => Some(*x),
            Mark::HLine { .. } => None,
        }))
        .filter_map(|v| to_axis(v, p.x_log));
    let has_bars = p.series.iter().any(|x| x.kind == SeriesKind::Bars);
    let ys = p
        .series
        .iter()
        .flat_map(|x| x.points.iter().map(|q| q[1]))
        .chain(p.marks.iter().filter_map(|m| match m {
            Mark::HLine { y, .. } | Mark::Point { y, .. } => Some(*y),
            Mark::VLine { .. } => None,
        }))
        .filter_map(|v| to_axis(v, p.y_log));
    let (x0, x1) = range(xs, false);
    let (y0, y1) = range(ys, has_bars && !p.y_log);
    let mut chart = ChartBuilder::on(&root)
        .caption(&p.title, (FONT, px(20.0)))
        .margin(px(12.0))
        .x_label_area_size(px(48.0))
        .y_label_area_size(px(70.0))
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    let xf = |v: &f64| tick(*v, p.x_log);
    let yf = |v: &f64| tick(*v, p.y_log);
    chart
        .configure_mesh()
        .x_desc(&p.x_label)
        .y_desc(&p.y_label)
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .label_style((FONT, px(13.0)))
        .axis_desc_style((FONT, px(15.0)))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(err)?;
    let width = ((x1 - x0) / 60.0).max(1e-9);
    for (i, se) in p.series.iter().enumerate() {
        let c = rgb(se.color.unwrap_or(PALETTE[i % PALETTE.len()]));
        let pts: Vec<(f64, f64)> = se
            .points
            .iter()
            .filter_map(|q| Some((to_axis(q[0], p.x_log)?, to_axis(q[1], p.y_log)?)))
            .collect();
        let style = ShapeStyle::from(&c).stroke_width(px(2.0).max(1) as u32);
        let anno = match se.kind {
            SeriesKind::Line => chart
                .draw_series(LineSeries::new(pts, style))
                .map_err(err)?,
            SeriesKind::Points => chart
                .draw_series(
                    pts.into_iter()
                        .map(|q| Circle::new(q, px(3.0), style.filled())),
                )
                .map_err(err)?,
            SeriesKind::Bars => chart
                .draw_series(pts.into_iter().map(|(x, y)| {
                    Rectangle::new(
                        [(x - width, y0.max(0.0).min(y)), (x + width, y)],
                        style.filled(),
                    )
                }))
                .map_err(err)?,
        };
        let lw = px(18.0);
        anno.label(se.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + lw, y)], style));
    }
    let mc = rgb(MARK_COLOR);
    let dash = ShapeStyle::from(&mc).stroke_width(px(1.5).max(1) as u32);
    let text = (FONT, px(13.0)).into_font().color(&mc);
    for m in &p.marks {
        match m {
            Mark::HLine { y, label } => {
                if let Some(y) = to_axis(*y, p.y_log) {
                    chart
                        .draw_series(DashedLineSeries::new(
                            vec![(x0, y), (x1, y)],
                            px(6.0),
                            px(4.0),
                            dash,
                        ))
                        .map_err(err)?;
                    let above = y + (y1 - y0) * 0.045;
                    chart
                        .draw_series(std::iter::once(Text::new(
                            label.clone(),
                            (x0 + (x1 - x0) * 0.01, above),
                            text.clone(),
                        )))
                        .map_err(err)?;
                }
            }
            Mark::VLine { x, label } => {
                if let Some(x) = to_axis(*x, p.x_log) {
                    chart
                        .draw_series(DashedLineSeries::new(
                            vec![(x, y0), (x, y1)],
                            px(6.0),
                            px(4.0),
                            dash,
                        ))
                        .map_err(err)?;
                    chart
                        .draw_series(std::iter::once(Text::new(
                            label.clone(),
                            (x + (x1 - x0) * 0.01, y1),
                            text.clone(),
                        )))
                        .map_err(err)?;
                }
            }
            Mark::Point { x, y, label } => {
                if let (Some(x), Some(y)) = (to_axis(*x, p.x_log), to_axis(*y, p.y_log)) {
                    chart
                        .draw_series(std::iter::once(Cross::new((x, y), px(5.0), dash)))
                        .map_err(err)?;
                    let at = (x + (x1 - x0) * 0.012, y + (y1 - y0) * 0.05);
                    chart
                        .draw_series(std::iter::once(Text::new(label.clone(), at, text.clone())))
                        .map_err(err)?;
                }
            }
        }
    }
    if !p.series.is_empty() {
        chart
            .configure_series_labels()
            .label_font((FONT, px(13.0)))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

fn check_size(width: u32, height: u32, scale: f32) -> Result<(u32, u32)> {
    if !(scale.is_finite() && (0.25..=8.0).contains(&scale)) {
        return Err(EngineError::invalid("scale", "use 0.25 to 8"));
    }
    let (w, h) = (
        (width as f32 * scale).round() as u32,
        (height as f32 * scale).round() as u32,
    );
    if !(64..=16_384).contains(&w) || !(64..=16_384).contains(&h) {
        return Err(EngineError::invalid(
            "size",
            format!("{w}×{h} pixels: each side 64 to 16384"),
        ));
    }
    Ok((w, h))
}

/// The plot as a PNG of `width × height` logical pixels times `scale`.
pub fn render_png(p: &Plot, width: u32, height: u32, scale: f32) -> Result<Vec<u8>> {
    register_font();
    let (w, h) = check_size(width, height, scale)?;
    let mut buf = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        draw(root, p, scale)?;
    }
    let img = image::RgbImage::from_raw(w, h, buf)
        .ok_or_else(|| EngineError::Internal("plot: buffer size".into()))?;
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| EngineError::Internal(format!("plot: PNG encoding: {e}")))?;
    Ok(out.into_inner())
}

/// The plot as SVG text.
pub(crate) fn render_svg(p: &Plot, width: u32, height: u32) -> Result<String> {
    register_font();
    let (w, h) = check_size(width, height, 1.0)?;
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (w, h)).into_drawing_area();
        draw(root, p, 1.0)?;
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Plot {
        Plot::new("命中率 hit ratio", "缓存大小 (条)", "命中率")
            .log_x()
            .series(Series::line(
                "LRU",
                [[100.0, 0.3], [1000.0, 0.5], [3000.0, 0.6]],
            ))
            .series(Series::points("FIFO", [[100.0, 0.28], [1000.0, 0.47]]).color([0, 128, 0]))
            .mark(Mark::HLine {
                y: 0.833,
                label: "书中上限 0.833".into(),
            })
            .mark(Mark::Point {
                x: 1000.0,
                y: 0.52,
                label: "表 9-2".into(),
            })
    }

    #[test]
    fn png_has_the_asked_size_and_draws_the_series_colour() {
        let png = render_png(&sample(), 320, 200, 2.0).unwrap();
        let img = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!((img.width(), img.height()), (640, 400));
        // The FIFO points are pure (0,128,0): some pixels carry that colour.
        assert!(img.pixels().any(|p| p.0 == [0, 128, 0]));
        // The reference mark's colour is drawn too.
        assert!(img.pixels().any(|p| p.0 == MARK_COLOR));
    }

    #[test]
    fn svg_names_the_series_and_the_marks() {
        let svg = render_svg(&sample(), 640, 400).unwrap();
        assert!(svg.starts_with("<svg"));
        for s in ["LRU", "FIFO", "书中上限 0.833", "表 9-2", "缓存大小 (条)"] {
            assert!(svg.contains(s), "{s} missing");
        }
    }

    #[test]
    fn empty_and_degenerate_plots_render() {
        let p = Plot::new("empty", "x", "y");
        assert!(render_png(&p, 200, 100, 1.0).is_ok());
        let p = Plot::new("one", "x", "y")
            .log_y()
            .series(Series::bars("b", [[1.0, 0.0], [2.0, f64::NAN], [3.0, 5.0]]));
        assert!(render_svg(&p, 200, 100).is_ok());
        assert!(render_png(&p, 10, 10, 1.0).is_err());
        assert!(render_png(&p, 200, 100, f32::NAN).is_err());
    }
}
