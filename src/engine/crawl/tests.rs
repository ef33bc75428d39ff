use super::*;

#[test]
fn crawl_delay_is_bounded_for_any_number() {
    assert_eq!(crawl_delay(0.2), Duration::from_secs_f32(0.2));
    assert_eq!(crawl_delay(-3.0), Duration::ZERO);
    assert_eq!(crawl_delay(f32::INFINITY), MAX_CRAWL_DELAY);
    assert_eq!(crawl_delay(f32::NEG_INFINITY), Duration::ZERO);
    assert_eq!(crawl_delay(f32::NAN), MAX_CRAWL_DELAY);
    assert_eq!(crawl_delay(1e30), MAX_CRAWL_DELAY);
}

#[test]
fn mix_and_retries_are_bounded_with_the_flag_named() {
    let base = CrawlParams {
        seeds: vec!["http://a.localhost/".into()],
        ..Default::default()
    };
    for (w, r) in [(1, u32::MAX), (0, 1), (MAX_MIX + 1, 0)] {
        let e = Crawl::new(CrawlParams {
            mix_weight: w,
            mix_random: r,
            ..base.clone()
        })
        .unwrap_err();
        assert!(e.is_user_error() && e.to_string().contains("mix"), "{e}");
    }
    let e = Crawl::new(CrawlParams {
        retries: MAX_RETRIES + 1,
        ..base.clone()
    })
    .unwrap_err();
    assert!(e.to_string().contains("retries"), "{e}");
    assert!(
        Crawl::new(CrawlParams {
            mix_weight: MAX_MIX,
            mix_random: MAX_MIX,
            retries: MAX_RETRIES,
            ..base
        })
        .is_ok()
    );
}
