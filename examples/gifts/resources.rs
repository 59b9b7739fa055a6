//! The gift server's resources and prompt: the catalog as JSON, one category through a URI
//! template, and a style guide for congratulation messages.

use mcp_runtime::prelude::*;
use mcp_runtime::{mcp_prompt, mcp_resource};

use crate::catalog::Catalog;

/// A category as the catalog resource shows it.
#[derive(Serialize)]
pub(crate) struct CategorySummary {
    name: String,
    brands: Vec<String>,
    min_price: f64,
    max_price: f64,
}

/// The catalog resource's contents.
#[derive(Serialize)]
pub(crate) struct CatalogSummary {
    categories: Vec<CategorySummary>,
}

fn summary(category: &crate::catalog::Category) -> CategorySummary {
    let prices = category.gifts.iter().map(|g| g.price);
    CategorySummary {
        name: category.name.clone(),
        brands: category.brands.clone(),
        min_price: prices.clone().fold(f64::INFINITY, f64::min),
        max_price: prices.fold(0.0, f64::max),
    }
}

/// Base catalog of gifts: categories with their brands and price ranges.
#[mcp_resource(
    uri = "mcp://gift-server/resources/gift_catalog",
    mime_type = "application/json",
    audience = "assistant",
    priority = 0.8
)]
pub(crate) fn gift_catalog() -> CatalogSummary {
    CatalogSummary {
        categories: Catalog::shipped().categories.iter().map(summary).collect(),
    }
}

/// One category of the catalog, with every gift in it.
#[mcp_resource(
    uri = "mcp://gift-server/resources/gift_catalog/{category}",
    mime_type = "application/json",
    title = "Gift category"
)]
pub(crate) fn gift_category(
    /// The category's name, e.g. `books`.
    #[complete(category_names)]
    category: String,
) -> Result<crate::catalog::Category, HandlerError> {
    Catalog::shipped()
        .categories
        .iter()
        .find(|c| c.name == category)
        .cloned()
        .ok_or_else(|| {
            HandlerError::not_found(format!(
                "mcp://gift-server/resources/gift_catalog/{category}"
            ))
        })
}

fn category_names(_prefix: &str) -> Vec<String> {
    Catalog::shipped()
        .categories
        .iter()
        .map(|c| c.name.clone())
        .collect()
}

/// The tones a congratulation can take.
const TONES: [&str; 4] = ["warm", "playful", "formal", "heartfelt"];

fn tones(_prefix: &str) -> [&'static str; 4] {
    TONES
}

/// A style guide for a warm, short birthday congratulation to send with a gift.
#[mcp_prompt(title = "Congratulation style")]
pub(crate) fn gift_congrats_style(
    /// The tone of the message: warm, playful, formal or heartfelt (warm by default).
    #[complete(tones)]
    tone: Option<String>,
) -> Vec<PromptMessage> {
    let tone = tone.unwrap_or_else(|| "warm".to_owned());
    vec![
        PromptMessage::user(format!(
            "Write a short, {tone} birthday congratulation to go with a gift. \
             Keep it to two or three sentences, address the person by name if you know it, \
             mention the gift lightly without its price, and end with a wish for the year ahead."
        )),
        PromptMessage::assistant(format!(
            "Understood: two or three {tone} sentences, personal, light on the gift, ending with a wish."
        )),
    ]
}
