use mcp_runtime::prelude::*;

struct Shop {
    name: String,
}

impl Shop {
    /// The shop's name.
    #[mcp_resource(uri = "gifts://shop")]
    fn name(&self) -> String {
        self.name.clone()
    }
}

fn main() {
    let shop = Shop {
        name: "Gifts & Co".to_owned(),
    };
    let _ = shop.name();
}
