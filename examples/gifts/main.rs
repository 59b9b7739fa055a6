//! The gift-ideas server over stdio: the tool `suggest_gifts`, the resource `gift_catalog` (and
//! a URI template for one category), and the prompt `gift_congrats_style`.
//!
//! ```text
//! cargo run --release --example gifts                        # stdio
//! cargo run --release --example gifts -- --http 127.0.0.1:8000  # Streamable HTTP at /mcp
//! ```

mod catalog;
mod resources;

use catalog::{Catalog, Occasion};
use mcp_runtime::prelude::*;

/// The gifts that fit.
#[derive(Serialize, JsonSchema)]
struct GiftList {
    /// The suggestions, best first.
    gifts: Vec<Gift>,
}

/// One gift idea.
#[derive(Serialize, JsonSchema)]
struct Gift {
    /// What to buy.
    name: String,
    /// Its typical price in dollars.
    price: f64,
}

/// Why no gift can be suggested: a business error the model reads and can act on.
#[derive(Debug)]
enum GiftError {
    NotAPositiveBudget(f64),
    NothingFits {
        occasion: Occasion,
        budget: f64,
        cheapest: f64,
    },
}

impl std::fmt::Display for GiftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GiftError::NotAPositiveBudget(budget) => {
                write!(
                    f,
                    "The budget must be a positive number of dollars, not {budget}."
                )
            }
            GiftError::NothingFits {
                occasion,
                budget,
                cheapest,
            } => write!(
                f,
                "No {occasion} gift fits a budget of ${budget}; the cheapest costs ${cheapest}. Try a budget of at least ${cheapest}."
            ),
        }
    }
}

/// Suggests gift ideas for a given occasion and budget, best matches first.
#[mcp_tool(title = "Gift ideas generator", read_only, idempotent)]
fn suggest_gifts(
    /// The occasion the gift is for.
    occasion: Occasion,
    /// The most the gift may cost, in dollars.
    budget: f64,
    /// Who the gift is for, in a few words (e.g. "my sister, loves cooking"); gifts that suit
    /// them come first.
    recipient: Option<String>,
) -> Result<GiftList, GiftError> {
    if budget.is_nan() || budget <= 0.0 {
        return Err(GiftError::NotAPositiveBudget(budget));
    }
    let catalog = Catalog::shipped();
    let mut fitting: Vec<_> = catalog.gifts_for(occasion).collect();
    let cheapest = fitting
        .iter()
        .map(|g| g.price)
        .fold(f64::INFINITY, f64::min);
    fitting.retain(|g| g.price <= budget);
    if fitting.is_empty() {
        return Err(GiftError::NothingFits {
            occasion,
            budget,
            cheapest,
        });
    }
    let words = recipient.unwrap_or_default().to_lowercase();
    let suits = |tags: &[String]| tags.iter().filter(|t| words.contains(t.as_str())).count();
    fitting.sort_by(|a, b| {
        suits(&b.tags)
            .cmp(&suits(&a.tags))
            .then(b.price.total_cmp(&a.price))
    });
    let gifts = fitting
        .into_iter()
        .take(5)
        .map(|g| Gift {
            name: g.name.clone(),
            price: g.price,
        })
        .collect();
    Ok(GiftList { gifts })
}

fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::server!()
        .name("gift-server")
        .title("Gift ideas")
        .instructions(
            "Call suggest_gifts with the occasion and a budget in dollars to get gift ideas.",
        )
        // Over `--http`, no request of this server needs more than a few hundred bytes.
        .run_with(mcp_runtime::HttpOptions::new().max_body_bytes(64 * 1024))
}
