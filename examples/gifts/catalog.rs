//! The gift catalog shipped with the example (`catalog.json`).

use std::fmt;
use std::sync::OnceLock;

use mcp_runtime::prelude::*;

/// What the gift celebrates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Occasion {
    Birthday,
    Wedding,
    Anniversary,
    Graduation,
    Housewarming,
}

impl fmt::Display for Occasion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self {
            Occasion::Birthday => "birthday",
            Occasion::Wedding => "wedding",
            Occasion::Anniversary => "anniversary",
            Occasion::Graduation => "graduation",
            Occasion::Housewarming => "housewarming",
        };
        f.write_str(word)
    }
}

#[derive(Deserialize)]
pub(crate) struct Catalog {
    pub(crate) categories: Vec<Category>,
}

#[derive(Clone, Deserialize, Serialize)]
pub(crate) struct Category {
    pub(crate) name: String,
    pub(crate) brands: Vec<String>,
    pub(crate) gifts: Vec<CatalogGift>,
}

#[derive(Clone, Deserialize, Serialize)]
pub(crate) struct CatalogGift {
    pub(crate) name: String,
    pub(crate) price: f64,
    pub(crate) occasions: Vec<Occasion>,
    pub(crate) tags: Vec<String>,
}

impl Catalog {
    /// The catalog in `catalog.json`, parsed once.
    pub(crate) fn shipped() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| {
            serde_json::from_str(include_str!("catalog.json")).expect("catalog.json is valid")
        })
    }

    /// Every gift suited to an occasion.
    pub(crate) fn gifts_for(&self, occasion: Occasion) -> impl Iterator<Item = &CatalogGift> {
        self.categories
            .iter()
            .flat_map(|c| &c.gifts)
            .filter(move |g| g.occasions.contains(&occasion))
    }
}
