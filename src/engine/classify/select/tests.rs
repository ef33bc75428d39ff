//! Hand-computed DF, IG, MI and CHI on a 4-document, 2-class corpus.
//!
//! d0 (c0) = {a, b, d}; d1 (c0) = {a, d}; d2 (c1) = {b, c, d}; d3 (c1) = {c}.
//! Term ids: a=0, b=1, c=2, d=3.
use super::*;

fn corpus() -> (Vec<SparseVec>, Vec<usize>) {
    let v = |ids: &[u32]| SparseVec {
        idx: ids.to_vec(),
        val: vec![1.0; ids.len()],
    };
    (
        vec![v(&[0, 1, 3]), v(&[0, 3]), v(&[1, 2, 3]), v(&[2])],
        vec![0, 0, 1, 1],
    )
}

fn close(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() < 1e-9, "{a:?} vs {b:?}");
    }
}

#[test]
fn df_counts_documents() {
    let (d, y) = corpus();
    close(
        &score_terms(Method::Df, Combine::Mean, &d, &y, 4, 2),
        &[2.0, 2.0, 2.0, 3.0],
    );
}

#[test]
fn ig_by_hand() {
    let (d, y) = corpus();
    let ln2 = 2f64.ln();
    // d: P(t)=3/4, H(C|t)=H(2/3,1/3), H(C|¬t)=0
    let h = -(2.0 / 3.0 * (2.0f64 / 3.0).ln() + 1.0 / 3.0 * (1.0f64 / 3.0).ln());
    close(
        &score_terms(Method::Ig, Combine::Mean, &d, &y, 4, 2),
        &[ln2, 0.0, ln2, ln2 - 0.75 * h],
    );
}

#[test]
fn chi_by_hand() {
    let (d, y) = corpus();
    // a: c0 A=2 B=0 C=0 D=2 → 4·16/16 = 4; c1 likewise 4. b: AD = CB → 0. d: 4·4/12 both classes.
    let want = [4.0, 0.0, 4.0, 4.0 / 3.0];
    close(
        &score_terms(Method::Chi, Combine::Mean, &d, &y, 4, 2),
        &want,
    );
    close(&score_terms(Method::Chi, Combine::Max, &d, &y, 4, 2), &want);
}

#[test]
fn mi_by_hand_skips_absent_classes() {
    let (d, y) = corpus();
    let ln2 = 2f64.ln();
    // a: c0 log(2·4/(2·2)) = ln 2, c1 has A=0 (left out). d: c0 ln(4/3), c1 ln(2/3).
    let mean_d = ((4.0f64 / 3.0).ln() + (2.0f64 / 3.0).ln()) / 2.0;
    close(
        &score_terms(Method::Mi, Combine::Mean, &d, &y, 4, 2),
        &[ln2, 0.0, ln2, mean_d],
    );
    close(
        &score_terms(Method::Mi, Combine::Max, &d, &y, 4, 2),
        &[ln2, 0.0, ln2, (4.0f64 / 3.0).ln()],
    );
    close(
        &score_terms(Method::Mi, Combine::Weighted, &d, &y, 4, 2),
        &[ln2, 0.0, ln2, mean_d],
    );
}

#[test]
fn keep_top_and_percent() {
    let scores = [4.0, 0.0, 4.0, 4.0 / 3.0];
    assert_eq!(select(&scores, Keep::Top(2)), vec![0, 2]);
    assert_eq!(select(&scores, Keep::Percent(75.0)), vec![0, 2, 3]);
    assert_eq!(Keep::parse("10%").unwrap(), Keep::Percent(10.0));
    assert_eq!(Keep::parse("500").unwrap(), Keep::Top(500));
    assert!(Keep::parse("0").is_err());
    assert!(Keep::parse("150%").is_err());
    assert!(Keep::parse("x").is_err());
}
