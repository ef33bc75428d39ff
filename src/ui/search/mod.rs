pub mod perfmodel;
mod perfmodel_plots;
mod perfmodel_stirling;
