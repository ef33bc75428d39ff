//! A tab's figure: the plot on screen (egui_plot; log axes drawn as log10 of the values with
//! ticks labelled in the values themselves, 1, 10, 100 …), and the same data as an export
//! `Plot` for PNG/SVG. The legend goes to the corner where the data leave the most room.

use egui::{RichText, Ui};
use egui_plot::{
    Bar, BarChart, Corner, GridMark, HLine, Legend, Line, Plot, PlotPoints, Points, VLine,
};

use crate::engine::export::{Mark, Plot as XPlot, Series as XSeries};
use crate::ui::Lang;
use crate::ui::export::{Exports, plot_buttons};

/// Height of a figure on screen, in points.
const HEIGHT: f32 = 340.0;

/// How a series is drawn.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Line,
    Points,
    Bars,
}

pub(super) struct Fig<'a> {
    pub id: &'a str,
    pub title: String,
    pub x: String,
    pub y: String,
    /// On screen, log axes are drawn as log10 of the values.
    pub log: (bool, bool),
    pub series: Vec<(String, Vec<[f64; 2]>, Kind)>,
    pub marks: Vec<Mark>,
}

impl Fig<'_> {
    fn export(&self) -> XPlot {
        let mut p = XPlot::new(self.title.clone(), self.x.clone(), self.y.clone());
        for (n, pts, k) in &self.series {
            p = p.series(match k {
                Kind::Line => XSeries::line(n.clone(), pts.clone()),
                Kind::Points => XSeries::points(n.clone(), pts.clone()),
                Kind::Bars => XSeries::bars(n.clone(), pts.clone()),
            });
        }
        p.marks = self.marks.clone();
        if self.log.0 {
            p = p.log_x();
        }
        if self.log.1 {
            p = p.log_y();
        }
        p
    }

    /// Every data point as drawn (log10 on log axes); bars count from zero up.
    fn drawn(&self) -> Vec<[f64; 2]> {
        let mut out = Vec::new();
        for (_, pts, k) in &self.series {
            for p in pts {
                let q = [lg(p[0], self.log.0), lg(p[1], self.log.1)];
                if *k == Kind::Bars {
                    // A bar fills its column from zero: sample it.
                    for i in 0..=4 {
                        out.push([q[0], q[1] * f64::from(i) / 4.0]);
                    }
                } else {
                    out.push(q);
                }
            }
        }
        out
    }
}

fn lg(v: f64, on: bool) -> f64 {
    if on { v.max(1e-12).log10() } else { v }
}

/// The corner whose quarter of the data's bounding box holds the fewest points (ties: top
/// right, then top left, bottom right, bottom left).
fn legend_corner(pts: &[[f64; 2]]) -> Corner {
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in pts.iter().filter(|p| p[0].is_finite() && p[1].is_finite()) {
        x0 = x0.min(p[0]);
        x1 = x1.max(p[0]);
        y0 = y0.min(p[1]);
        y1 = y1.max(p[1]);
    }
    if x0 > x1 || y0 > y1 {
        return Corner::RightTop;
    }
    let (w, h) = ((x1 - x0).max(1e-12), (y1 - y0).max(1e-12));
    // A legend takes about the outer 40 % of the width and 45 % of the height.
    let count = |right: bool, top: bool| {
        pts.iter()
            .filter(|p| {
                let fx = (p[0] - x0) / w;
                let fy = (p[1] - y0) / h;
                (if right { fx >= 0.6 } else { fx <= 0.4 })
                    && (if top { fy >= 0.55 } else { fy <= 0.45 })
            })
            .count()
    };
    [
        (Corner::RightTop, count(true, true)),
        (Corner::LeftTop, count(false, true)),
        (Corner::RightBottom, count(true, false)),
        (Corner::LeftBottom, count(false, false)),
    ]
    .into_iter()
    .min_by_key(|&(_, n)| n)
    .map_or(Corner::RightTop, |(c, _)| c)
}

/// Tick labels of a log10 axis: the value itself at whole powers of ten, nothing between.
fn power_of_ten(mark: GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    let e = mark.value.round();
    if (mark.value - e).abs() > 1e-6 {
        return String::new();
    }
    if e >= 0.0 {
        let digits = 10u64.saturating_pow(e as u32).to_string();
        // 1,000 and 10,000 rather than 1000 and 10000.
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else {
        format!("{}", 10f64.powi(e as i32))
    }
}

pub(super) fn figure(ui: &mut Ui, lang: Lang, ex: &mut Exports, f: Fig<'_>) {
    // Wrapping: a long title with its buttons ran past a narrow panel's edge, and the plot
    // below took the row's width.
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&f.title).strong());
        let xp = f.export();
        plot_buttons(ui, lang, ex, move || xp.clone());
    });
    let axis = |name: &str, log: bool| {
        if log {
            lang.tf("ql.log_axis", &[&name])
        } else {
            name.to_string()
        }
    };
    let mut plot = Plot::new(f.id.to_string())
        .height(HEIGHT)
        .legend(Legend::default().position(legend_corner(&f.drawn())))
        .x_axis_label(axis(&f.x, f.log.0))
        .y_axis_label(axis(&f.y, f.log.1));
    if f.log.0 {
        plot = plot.x_axis_formatter(power_of_ten);
    }
    if f.log.1 {
        plot = plot.y_axis_formatter(power_of_ten);
    }
    plot.show(ui, |pl| {
        for (n, pts, k) in &f.series {
            let pts: Vec<[f64; 2]> = pts
                .iter()
                .map(|p| [lg(p[0], f.log.0), lg(p[1], f.log.1)])
                .collect();
            match k {
                Kind::Line => pl.line(Line::new(n.clone(), PlotPoints::from(pts))),
                Kind::Points => {
                    pl.points(Points::new(n.clone(), PlotPoints::from(pts)).radius(2.5))
                }
                Kind::Bars => pl.bar_chart(BarChart::new(
                    n.clone(),
                    pts.iter()
                        .map(|p| Bar::new(p[0], p[1]).width(0.4))
                        .collect(),
                )),
            }
        }
        for m in &f.marks {
            match m {
                Mark::HLine { y, label } => pl.hline(HLine::new(label.clone(), lg(*y, f.log.1))),
                Mark::VLine { x, label } => pl.vline(VLine::new(label.clone(), lg(*x, f.log.0))),
                Mark::Point { x, y, label } => pl.points(
                    Points::new(
                        label.clone(),
                        PlotPoints::from(vec![[lg(*x, f.log.0), lg(*y, f.log.1)]]),
                    )
                    .radius(5.0),
                ),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_avoids_the_data() {
        // A curve rising to the top right (coverage): the legend goes to the bottom right.
        let rising: Vec<[f64; 2]> = (1..=100)
            .map(|i| {
                let x = f64::from(i) / 100.0;
                [x, x.powf(0.15)]
            })
            .collect();
        assert!(matches!(legend_corner(&rising), Corner::RightBottom));
        // Falling (rank–frequency): top right is free.
        let falling: Vec<[f64; 2]> = (1..=100).map(|i| [f64::from(i), -f64::from(i)]).collect();
        assert!(matches!(legend_corner(&falling), Corner::RightTop));
    }

    #[test]
    fn log_ticks_read_as_values() {
        let m = |value| GridMark {
            value,
            step_size: 1.0,
        };
        assert_eq!(power_of_ten(m(3.0), &(0.0..=5.0)), "1,000");
        assert_eq!(power_of_ten(m(0.0), &(0.0..=5.0)), "1");
        assert_eq!(power_of_ten(m(0.5), &(0.0..=5.0)), "");
    }
}
