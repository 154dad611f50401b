// Jest stand-in for @ant-design/charts / @ant-design/plots (canvas, ~430 KB): each chart renders a
// <div data-testid="chart-stub"> naming its kind and carrying its props as JSON, for assertions.
const React = require('react');

function stub(kind) {
  function Chart(props) {
    const { children, ...rest } = props;
    return React.createElement('div', {
      'data-testid': 'chart-stub',
      'data-chart': kind,
      'data-props': JSON.stringify(children ? { ...rest, children } : rest),
    });
  }
  Chart.displayName = `${kind}Stub`;
  return Chart;
}

module.exports = {
  Area: stub('Area'),
  Column: stub('Column'),
  Bar: stub('Bar'),
  Line: stub('Line'),
  Pie: stub('Pie'),
  DualAxes: stub('DualAxes'),
};
