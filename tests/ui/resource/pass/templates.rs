use mcp_runtime::prelude::*;

/// A gift category.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Category {
    Books,
    Games,
}

/// One category of the catalog.
#[mcp_resource(uri = "gifts://catalog/{category}")]
fn category(
    /// The category's name.
    category: String,
) -> String {
    category
}

/// A file under the catalog's folder: the path may span `/`.
#[mcp_resource(uri = "gifts://files/{+path}")]
fn file(path: String) -> String {
    path
}

/// A search, with optional query parameters.
#[mcp_resource(uri = "gifts://search{?q,lang}")]
fn search(
    /// What to look for.
    q: String,
    /// The language of the answer, English by default.
    lang: Option<String>,
) -> String {
    format!("{q} ({})", lang.as_deref().unwrap_or("en"))
}

/// One gift of a category, by number.
#[mcp_resource(uri = "gifts://catalog/{kind}/{number}")]
fn numbered(kind: Category, number: u32) -> String {
    let kind = match kind {
        Category::Books => "book",
        Category::Games => "game",
    };
    format!("{kind} #{number}")
}

/// A template whose variables come in another order than the parameters.
#[mcp_resource(uri = "gifts://price/{currency}/{amount}")]
fn price(amount: f64, currency: String) -> String {
    format!("{amount} {currency}")
}

fn main() {
    assert_eq!(numbered(Category::Games, 3), "game #3");

    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<category>()
        .resource::<file>()
        .resource::<search>()
        .resource::<numbered>()
        .resource::<price>()
        .build()
        .unwrap();
}
