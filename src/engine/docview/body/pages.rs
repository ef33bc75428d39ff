//! Pages written for the tests of the body's furniture rules (`furniture`, `edges`): one
//! article of four paragraphs in a news page's frame, with the furniture under test put inside
//! the article's own container or after it.
//!
//! ```ignore
//! let dv = page(&format!("{ARTICLE}<p>图片均来自网络</p>"), "");
//! assert_eq!(why_of(&dv, "图片均来自网络"), "credit_line");
//! ```

use crate::engine::docview::{DocView, Params, extract};

/// Four paragraphs of running text, the article every page below carries.
pub(super) const ARTICLE: &str = "<p>今年以来，本市持续推进老旧小区改造工作，截至目前已有一百二十个小区完成改造，惠及居民三万余户。改造内容包括加装电梯、更新管网和整治环境。</p>\
<p>市住房和城乡建设局有关负责人介绍，改造坚持“居民点单、政府配菜”，每个项目开工前都要征求居民意见，确保改造内容符合居民的实际需要。</p>\
<p>在城东街道的一个小区，改造后新增了四十个停车位和一处健身广场。居民王女士说，过去晚上回家找不到车位，现在问题解决了，小区也变得更整洁了。</p>\
<p>据了解，明年本市计划再改造一百五十个小区，并将探索引入社会资本参与改造和后续的物业管理，建立长效管理机制。</p>";

/// A page whose article container holds `inside`, with `after` between it and the footer.
pub(super) fn page(inside: &str, after: &str) -> DocView {
    let html = format!(
        "<html><head><meta charset=utf-8><title>老旧小区改造惠及三万户_本地新闻</title></head><body>\
         <div id=nav><a href=/>首页</a> <a href=/news>新闻</a> <a href=/city>城市</a></div>\
         <div class=article><h1>老旧小区改造惠及三万户</h1>{inside}</div>{after}\
         <div id=footer>版权所有 本地新闻网</div></body></html>"
    );
    clean(&html)
}

/// The DocView of a whole page written here.
pub(super) fn clean(html: &str) -> DocView {
    extract(html.as_bytes(), None, None, None, &Params::default()).expect("a page written here")
}

/// The reason key of the block whose own text is `text`.
pub(super) fn why_of(dv: &DocView, text: &str) -> &'static str {
    dv.blocks
        .iter()
        .find(|b| b.text == text)
        .map_or("(no such block)", |b| b.why.key)
}

pub(super) fn body_has(dv: &DocView, text: &str) -> bool {
    dv.body.lines().any(|l| l.contains(text))
}
